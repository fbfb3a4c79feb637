/**
 * The app as the harness runs it: the same electron-vite build as `npm run build` (main and
 * preload, from electron.vite.config.ts), the renderer (src/web/renderer-build.ts's build of the
 * same sources), and the stand-in runtime, in `out/electron-stand-in/<hash of the sources>/`. A
 * folder per content hash means a re-run after no change builds nothing, and a stale build is
 * never run; each build goes to a temporary folder that is renamed when complete.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, join, relative } from 'node:path'
import { ensureRendererBuild, REPO_ROOT } from '../../src/web/renderer-build'

/** What main, preload and the stand-in are made of (the renderer has its own hash). */
const INPUTS = ['src/main', 'src/preload', 'src/shared', 'src/emulator', 'electron.vite.config.ts', 'package.json', 'scripts/electron-stand-in']

const RUNTIME_ENTRIES = ['electron', 'keyring', 'node-pty-spawn-fails', 'hooks', 'register']

async function listFiles(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => undefined)
  if (!info) return []
  if (info.isFile()) return /\.test\.ts$/.test(path) ? [] : [path]
  const entries = await readdir(path, { withFileTypes: true })
  return (await Promise.all(entries.map((entry) => listFiles(join(path, entry.name))))).flat()
}

async function sourceHash(root: string, rendererDir: string): Promise<string> {
  const files = (await Promise.all(INPUTS.map((input) => listFiles(join(root, input))))).flat().sort()
  const hash = createHash('sha256').update(basename(rendererDir)).update('\0')
  for (const file of files) hash.update(relative(root, file)).update('\0').update(await readFile(file)).update('\0')
  return hash.digest('hex').slice(0, 16)
}

export interface StandInBuild {
  /** Holds main/index.js, preload/index.cjs, renderer/index.html and stand-in/register.mjs. */
  dir: string
  built: boolean
}

export async function ensureStandInBuild(root = REPO_ROOT, log: (line: string) => void = () => {}): Promise<StandInBuild> {
  const renderer = await ensureRendererBuild(root, log)
  const hash = await sourceHash(root, renderer.dir)
  const base = join(root, 'out', 'electron-stand-in')
  const dir = join(base, hash)
  if (existsSync(join(dir, 'complete'))) return { dir, built: false }
  await mkdir(base, { recursive: true })
  const temp = join(base, `.build-${process.pid}-${Date.now()}`)
  log('[electron-stand-in] building the app main process and the stand-in (once per source change)…')
  const [{ build }, electronVite] = await Promise.all([import('vite'), import('electron-vite')])
  const previousMode = process.env['NODE_ENV_ELECTRON_VITE']
  process.env['NODE_ENV_ELECTRON_VITE'] = 'production'
  try {
    const resolved = await electronVite.resolveConfig({ root, configFile: join(root, 'electron.vite.config.ts'), logLevel: 'error' }, 'build', 'production')
    for (const target of ['main', 'preload'] as const) {
      const config = resolved.config?.[target]
      if (!config) throw new Error(`electron.vite.config.ts has no ${target} build`)
      await build({ ...config, logLevel: 'error', build: { ...config.build, outDir: join(temp, target), emptyOutDir: true } } as Parameters<typeof build>[0])
    }
  } finally {
    if (previousMode === undefined) delete process.env['NODE_ENV_ELECTRON_VITE']
    else process.env['NODE_ENV_ELECTRON_VITE'] = previousMode
  }
  const runtime = join(root, 'scripts', 'electron-stand-in', 'runtime')
  await build({
    configFile: false,
    root,
    logLevel: 'error',
    build: {
      ssr: true,
      target: 'node20',
      minify: false,
      outDir: join(temp, 'stand-in'),
      emptyOutDir: true,
      rollupOptions: {
        input: Object.fromEntries(RUNTIME_ENTRIES.map((name) => [name, join(runtime, `${name}.ts`)])),
        output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' }
      }
    }
  })
  await cp(renderer.dir, join(temp, 'renderer'), { recursive: true })
  await writeFile(join(temp, 'complete'), `${new Date().toISOString()}\n`)
  try {
    await rename(temp, dir)
  } catch {
    // Another run finished the same build first; theirs is identical.
    await rm(temp, { recursive: true, force: true })
  }
  return { dir, built: true }
}
