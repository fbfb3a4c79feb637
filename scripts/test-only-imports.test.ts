/**
 * Test code stays out of the app. A production file (under src/, not a *.test.ts, not inside a
 * testing/ folder) never imports a test helper (anything in a testing/ folder) or a test
 * framework (vitest, Playwright, fast-check): they would ship in the build, and a helper's
 * shortcuts (fixed keys, fake clocks, loopback servers) would become the app's behaviour.
 * And the renderer never imports src/shared/node/, whose rules need Node (its tsconfig has no
 * Node types either, so svelte-check fails too; this says why in one line).
 */
import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, importsOf, isTestFile, sourceFiles, type FileImports } from './import-graph'

const TEST_PACKAGES = /^(vitest|@vitest\/|@playwright\/test$|playwright$|fast-check$)/

const inFolder = (file: string, folder: string): boolean => file.split(sep).includes(folder)

/** Is `file` part of the app (as opposed to a test or a test helper)? Paths relative to the repo. */
export function isProduction(file: string): boolean {
  return file.startsWith(`src${sep}`) && !isTestFile(file) && !inFolder(file, 'testing')
}

/** What production files import that they must not: `file → what`, paths relative to the repo. */
export function testOnlyImports(imports: ReadonlyMap<string, FileImports>): string[] {
  const found: string[] = []
  for (const [file, { files, packages }] of imports) {
    if (!isProduction(file)) continue
    for (const target of files) if (inFolder(target, 'testing')) found.push(`${file} → ${target}`)
    for (const name of packages) if (TEST_PACKAGES.test(name)) found.push(`${file} → ${name}`)
    if (file.startsWith(join('src', 'renderer'))) {
      for (const target of files) if (target.startsWith(join('src', 'shared', 'node'))) found.push(`${file} → ${target}`)
    }
  }
  return found
}

function repositoryImports(): Map<string, FileImports> {
  const relativeTo = (file: string): string => relative(ROOT, file)
  return new Map(
    sourceFiles(join(ROOT, 'src')).map((file) => {
      const { files, packages } = importsOf(file)
      return [relativeTo(file), { files: files.map(relativeTo), packages }]
    })
  )
}

describe('test code stays out of the app', () => {
  it('finds each kind of wrong import, and lets tests and helpers import what they like', () => {
    const at = (...parts: string[]): string => join(...parts)
    const imports = new Map<string, FileImports>([
      [at('src', 'main', 'core.ts'), { files: [at('src', 'main', 'testing', 'core-harness.ts')], packages: ['vitest', 'zod'] }],
      [at('src', 'renderer', 'src', 'lib', 'bridge.ts'), { files: [at('src', 'shared', 'node', 'secret.ts')], packages: ['fast-check'] }],
      [at('src', 'main', 'core.test.ts'), { files: [at('src', 'main', 'testing', 'core-harness.ts')], packages: ['vitest'] }],
      [at('src', 'main', 'testing', 'core-harness.ts'), { files: [at('src', 'shared', 'testing', 'instance.ts')], packages: ['vitest'] }],
      [at('src', 'emulator', 'index.ts'), { files: [at('src', 'shared', 'node', 'secret.ts')], packages: ['@playwright/test'] }]
    ])
    expect(testOnlyImports(imports)).toEqual([
      `${at('src', 'main', 'core.ts')} → ${at('src', 'main', 'testing', 'core-harness.ts')}`,
      `${at('src', 'main', 'core.ts')} → vitest`,
      `${at('src', 'renderer', 'src', 'lib', 'bridge.ts')} → fast-check`,
      `${at('src', 'renderer', 'src', 'lib', 'bridge.ts')} → ${at('src', 'shared', 'node', 'secret.ts')}`,
      `${at('src', 'emulator', 'index.ts')} → @playwright/test`
    ])
  })

  it('holds in src/', () => {
    expect(testOnlyImports(repositoryImports())).toEqual([])
  })
})
