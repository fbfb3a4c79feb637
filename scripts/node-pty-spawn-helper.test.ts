/**
 * The postinstall that restores node-pty's spawn-helper execute bit (macOS prebuilds ship it
 * 0644, microsoft/node-pty#850): on a copy of node-pty's layout, and wired into npm install.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { skipBecause } from '../src/shared/node/testing/platform-support'

const require = createRequire(import.meta.url)
const { restoreExecuteBits, spawnHelpers } = require('./node-pty-spawn-helper.cjs') as {
  restoreExecuteBits(dir: string): string[]
  spawnHelpers(dir: string): string[]
}
const ROOT = join(import.meta.dirname, '..')

let dir = ''
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const mode = (path: string): number => statSync(path).mode & 0o777

describe.skipIf(
  skipBecause(process.platform === 'win32' ? 'Windows has no execute bit to restore' : undefined, 'the spawn-helper postinstall tests')
)('node-pty spawn-helper postinstall', () => {
  it('makes every prebuilt and built spawn-helper executable, and leaves executable ones alone', () => {
    dir = mkdtempSync(join(tmpdir(), 'node-pty-layout-'))
    const files = ['prebuilds/darwin-arm64/spawn-helper', 'prebuilds/darwin-x64/spawn-helper', 'build/Release/spawn-helper']
    for (const file of files) {
      mkdirSync(join(dir, file, '..'), { recursive: true })
      writeFileSync(join(dir, file), 'binary')
      chmodSync(join(dir, file), 0o644)
    }
    chmodSync(join(dir, files[2]!), 0o755)
    mkdirSync(join(dir, 'prebuilds', 'win32-x64'))
    expect(spawnHelpers(dir).sort()).toEqual(files.map((f) => join(dir, f)).sort())
    expect(restoreExecuteBits(dir).sort()).toEqual([join(dir, files[0]!), join(dir, files[1]!)].sort())
    for (const file of files) expect(mode(join(dir, file))).toBe(0o755)
    expect(restoreExecuteBits(dir)).toEqual([])
  })

  it('runs on npm install', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(pkg.scripts['postinstall']).toBe('node scripts/node-pty-spawn-helper.cjs')
  })
})
