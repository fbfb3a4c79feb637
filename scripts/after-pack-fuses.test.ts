/**
 * Checklist item 19: the fuses. The config is checked decision by decision, and the hook is run
 * on a stand-in binary carrying Electron's fuse wire (same sentinel and layout) to prove it
 * flips every fuse and reads each one back.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FuseV1Options, FuseVersion, getCurrentFuseWire } from '@electron/fuses'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const require = createRequire(import.meta.url)
const hook = require('./after-pack-fuses.cjs') as {
  (context: unknown): Promise<void>
  fuseConfig: Record<string, unknown>
  applyFuses: (path: string) => Promise<Record<number, number>>
  electronBinaryPath: (context: unknown) => string
}

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
const ENABLE = 49
const DISABLE = 48
const scratch = mkdtempSync(join(tmpdir(), 'fuses-test-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A file shaped like Electron's binary where it matters: junk, sentinel, version, length, wire. */
function fakeElectron(name: string, wire: string): string {
  const path = join(scratch, name)
  writeFileSync(
    path,
    Buffer.concat([
      Buffer.from('\x7fELF not really electron '),
      Buffer.from(SENTINEL),
      Buffer.from([1, wire.length]),
      Buffer.from(wire),
      Buffer.from(' trailing bytes')
    ])
  )
  return path
}

describe('fuse config', () => {
  it.each([
    ['RunAsNode', false],
    ['EnableNodeOptionsEnvironmentVariable', false],
    ['EnableNodeCliInspectArguments', false],
    ['EnableCookieEncryption', true],
    ['OnlyLoadAppFromAsar', true],
    ['EnableEmbeddedAsarIntegrityValidation', true],
    ['LoadBrowserProcessSpecificV8Snapshot', false],
    ['GrantFileProtocolExtraPrivileges', false]
  ] as const)('%s is %s', (fuse, on) => {
    expect(hook.fuseConfig[FuseV1Options[fuse]]).toBe(on)
  })

  it('grants file:// its extra privileges exactly while the app window is loaded from file://', () => {
    // If the page moves to a custom protocol, this fuse must go off (checklist item 18), and vice versa.
    const sources = readdirSync(join(import.meta.dirname, '..', 'src', 'main'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => readFileSync(join(import.meta.dirname, '..', 'src', 'main', f), 'utf8'))
    const loadsFromFile = sources.some((text) => /\.loadFile\(|loadURL\(\s*['"`]file:/.test(text))
    expect(hook.fuseConfig[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(loadsFromFile)
    // The page comes from the custom scheme instead (checklist item 18).
    expect(sources.some((text) => /protocol\.handle\(APP_SCHEME/.test(text))).toBe(true)
  })

  it('decides every fuse this @electron/fuses knows', () => {
    const known = Object.values(FuseV1Options).filter((v) => typeof v === 'number')
    for (const index of known) expect(typeof hook.fuseConfig[index], FuseV1Options[index]).toBe('boolean')
    expect(hook.fuseConfig['version']).toBe(FuseVersion.V1)
  })
})

describe('afterPack hook', () => {
  it('flips the fuses in a Linux build and leaves the rest of the binary alone', async () => {
    const binary = fakeElectron('cloud-tray', '11001011')
    const before = readFileSync(binary)
    await hook({
      appOutDir: scratch,
      electronPlatformName: 'linux',
      arch: 1,
      packager: { executableName: 'cloud-tray', appInfo: { productFilename: 'Cloud Tray' } }
    })
    const wire = await getCurrentFuseWire(binary)
    expect(wire[FuseV1Options.RunAsNode]).toBe(DISABLE)
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(ENABLE)
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(DISABLE)
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(DISABLE)
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(ENABLE)
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ENABLE)
    const after = readFileSync(binary)
    expect(after.length).toBe(before.length)
    expect(after.subarray(after.length - 15).toString()).toBe(' trailing bytes')
  })

  it('leaves fuses newer than this config untouched instead of failing the build', async () => {
    const binary = fakeElectron('newer-electron', '110010111')
    await hook.applyFuses(binary)
    const wire = (await getCurrentFuseWire(binary)) as unknown as Record<number, number>
    expect(wire[8]).toBe(ENABLE)
  })

  it('fails loudly when the binary has no fuse wire', async () => {
    const path = join(scratch, 'not-electron')
    writeFileSync(path, 'no sentinel here')
    await expect(hook.applyFuses(path)).rejects.toThrow(/sentinel/)
  })

  it.each([
    ['linux', 'cloud-tray'],
    ['win32', 'Cloud Tray.exe'],
    ['darwin', 'Cloud Tray.app']
  ])('finds the binary on %s', (platform, file) => {
    const context = {
      appOutDir: '/out',
      electronPlatformName: platform,
      packager: { executableName: 'cloud-tray', appInfo: { productFilename: 'Cloud Tray' } }
    }
    expect(hook.electronBinaryPath(context)).toBe(join('/out', file))
  })

  it('is the afterPack hook of electron-builder.yml', () => {
    const config = parse(readFileSync(join(import.meta.dirname, '..', 'electron-builder.yml'), 'utf8')) as {
      afterPack?: string
    }
    expect(config.afterPack).toBe('scripts/after-pack-fuses.cjs')
  })
})
