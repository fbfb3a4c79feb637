/**
 * The app as the harness runs it: the same electron-vite build as `npm run build` (main and
 * preload, from electron.vite.config.ts), the renderer (src/web/renderer-build.ts's build of the
 * same sources), and the stand-in runtime, in `out/electron-stand-in/<hash of the sources>/`. A
 * folder per content hash means a re-run after no change builds nothing, and a stale build is
 * never run; each build goes to a temporary folder that is renamed when complete.
 */
import { existsSync } from 'node:fs'
import { cp, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { buildIntoPlace, contentHash, ensureRendererBuild, REPO_ROOT } from '../../src/web/renderer-build'

/** What main, preload and the stand-in are made of (the renderer has its own hash). */
const INPUTS = [
  'src/main',
  'src/preload',
  'src/shared',
  'src/emulator',
  'electron.vite.config.ts',
  'package.json',
  'scripts/electron-stand-in'
]

const RUNTIME_ENTRIES = ['electron', 'keyring', 'node-pty-spawn-fails', 'hooks', 'register']

export interface StandInBuild {
  /** Holds main/index.js, preload/index.cjs, renderer/index.html and stand-in/register.mjs. */
  dir: string
  built: boolean
}

export async function ensureStandInBuild(root = REPO_ROOT, log: (line: string) => void = () => {}): Promise<StandInBuild> {
  const renderer = await ensureRendererBuild(root, log, 'electron')
  const dir = join(root, 'out', 'electron-stand-in', await contentHash(root, INPUTS, basename(renderer.dir)))
  if (existsSync(join(dir, 'complete'))) return { dir, built: false }
  log('[electron-stand-in] building the app main process and the stand-in (once per source change)…')
  const [{ build }, electronVite] = await Promise.all([import('vite'), import('electron-vite')])
  await buildIntoPlace(dir, async (temp) => {
    const previousMode = process.env['NODE_ENV_ELECTRON_VITE']
    process.env['NODE_ENV_ELECTRON_VITE'] = 'production'
    try {
      const resolved = await electronVite.resolveConfig(
        { root, configFile: join(root, 'electron.vite.config.ts'), logLevel: 'error' },
        'build',
        'production'
      )
      for (const target of ['main', 'preload'] as const) {
        const config = resolved.config?.[target]
        if (!config) throw new Error(`electron.vite.config.ts has no ${target} build`)
        await build({
          ...config,
          logLevel: 'error',
          build: { ...config.build, outDir: join(temp, target), emptyOutDir: true }
        } as Parameters<typeof build>[0])
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
  })
  return { dir, built: true }
}
