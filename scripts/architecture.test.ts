/**
 * ARCHITECTURE.md is the map of the house, so it must stay true to the tree: every path it names
 * in backticks exists, and every layer rule of eslint.config.js appears in its table of who may
 * import whom. A folder moved or removed without updating the map fails here.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ROOT } from './import-graph'

const MAP = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8')

/** The layer table as the lint config holds it (a path in a variable: the config is plain JavaScript, untyped). */
const CONFIG = pathToFileURL(join(ROOT, 'eslint.config.js')).href
const { LAYERS } = (await import(CONFIG)) as { LAYERS: { target: string }[] }

/**
 * Where a short name in the map is read from: the map writes `ssh/links/` inside the SSH wing's
 * paragraph and `lib/mirror.svelte.ts` in the renderer's, so a name counts when it exists under
 * one of the rooms it is written about.
 */
const BASES = [
  '.',
  'src',
  'src/main',
  'src/main/ssh',
  'src/renderer/src',
  'src/renderer/src/terminal',
  'src/shared',
  'src/emulator',
  'src/web'
]

const FILE_ENDINGS = /\.(ts|js|cjs|md|svelte|css|json|yml|sh)$/

/** The backticked words of the map that name a file or a folder (not globs, not the spec outside the repo). */
export function namedPaths(markdown: string): string[] {
  const names = new Set<string>()
  for (const [, word] of markdown.matchAll(/`([^`\s]+)`/g)) {
    if (!word || word.startsWith('../') || word.includes('*')) continue
    if (!/^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(word)) continue
    if (word.includes('/') || FILE_ENDINGS.test(word)) names.add(word)
  }
  return [...names]
}

const exists = (name: string): boolean => BASES.some((base) => existsSync(join(ROOT, base, name)))

describe('ARCHITECTURE.md', () => {
  it('names paths, and every one of them exists in the tree', () => {
    const names = namedPaths(MAP)
    expect(names.length).toBeGreaterThan(40)
    expect(names.filter((name) => !exists(name))).toEqual([])
  })

  it('lists every layer rule of eslint.config.js in its table', () => {
    const missing = LAYERS.map((layer) => layer.target.replace(/^\.\//, '')).filter((target) => {
      const folder = target.split('/').pop() ?? target
      return !MAP.includes(`\`${target}\``) && !MAP.includes(`\`${folder}/\``)
    })
    expect(missing).toEqual([])
  })

  it('the path check can fail: a folder that is not there is found', () => {
    expect(namedPaths('see `src/main/no-such-room/` and `lib/mirror.svelte.ts`').filter((name) => !exists(name))).toEqual([
      'src/main/no-such-room/'
    ])
  })
})
