/**
 * The built renderer for the web shell: `electron.vite.config.ts`'s renderer config, built with
 * vite's JS API into `out/web-renderer/<hash of the sources>/`. A folder per content hash means
 * a stale build is never served, and two shells starting at once (parallel e2e workers) never
 * write into the folder the other is serving: each builds into a temp folder and renames it.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PageShell } from '../shared/content-security-policy'

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** What the renderer bundle is made of: a change to any of these needs a new build. */
const INPUTS = ['src/renderer', 'src/shared', 'electron.vite.config.ts', 'svelte.config.js', 'package.json', 'tsconfig.web.json']

async function listFiles(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => undefined)
  if (!info) return []
  if (info.isFile()) return [path]
  const entries = await readdir(path, { withFileTypes: true })
  const nested = await Promise.all(
    entries.filter((entry) => !entry.name.endsWith('.test.ts')).map((entry) => listFiles(join(path, entry.name)))
  )
  return nested.flat()
}

/** SHA-256 over `seed` and the files under `inputs` (paths and contents, tests left out), first 16 hex digits. */
export async function contentHash(root: string, inputs: readonly string[], seed = ''): Promise<string> {
  const files = (await Promise.all(inputs.map((input) => listFiles(join(root, input))))).flat().sort()
  const hash = createHash('sha256').update(seed).update('\0')
  for (const file of files) {
    hash
      .update(relative(root, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0')
  }
  return hash.digest('hex').slice(0, 16)
}

/** SHA-256 over the renderer's inputs (paths and contents), first 16 hex digits. */
export function rendererSourceHash(root = REPO_ROOT): Promise<string> {
  return contentHash(root, INPUTS)
}

/**
 * Builds into a temporary folder beside `dir`, then renames it into place, so nothing ever
 * serves or runs a half-written build; a concurrent identical build may have won the rename.
 */
export async function buildIntoPlace(dir: string, build: (temp: string) => Promise<void>): Promise<void> {
  const base = dirname(dir)
  await mkdir(base, { recursive: true })
  const temp = join(base, `.build-${process.pid}-${Date.now()}`)
  await build(temp)
  try {
    await rename(temp, dir)
  } catch {
    // Another build of the same sources finished first; theirs is identical.
    await rm(temp, { recursive: true, force: true })
  }
}

export interface RendererBuild {
  dir: string
  /** True when this call built it; false when a fresh build was already there. */
  built: boolean
}

/**
 * The folder holding index.html and assets for the current sources; builds it when missing.
 * `shell`: whose page (its Content-Security-Policy differs: the web shell's talks over a socket);
 * the Electron stand-in runs Electron's.
 */
export async function ensureRendererBuild(
  root = REPO_ROOT,
  log: (line: string) => void = () => {},
  shell: PageShell = 'web'
): Promise<RendererBuild> {
  const hash = await rendererSourceHash(root)
  const dir = join(root, 'out', shell === 'web' ? 'web-renderer' : 'electron-renderer', hash)
  if (existsSync(join(dir, 'index.html'))) return { dir, built: false }
  log(`Building the ${shell} renderer (once per source change)…`)
  const [{ build }, configModule] = await Promise.all([import('vite'), import('../../electron.vite.config')])
  const renderer = configModule.rendererConfig(shell) as Record<string, unknown> & { build?: Record<string, unknown> }
  await buildIntoPlace(dir, async (temp) => {
    await build({
      ...renderer,
      configFile: false,
      root: join(root, 'src/renderer'),
      base: './',
      logLevel: 'error',
      build: {
        ...(renderer.build ?? {}),
        outDir: temp,
        emptyOutDir: true,
        rollupOptions: { input: join(root, 'src/renderer/index.html') }
      }
    })
  })
  return { dir, built: true }
}
