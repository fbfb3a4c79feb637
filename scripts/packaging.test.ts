/**
 * electron-builder.yml, checked without packaging: it satisfies electron-builder's own schema,
 * builds the four installers, keeps native modules out of the asar, and runs the fuses hook.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const require = createRequire(import.meta.url)
// electron-builder's own validator (app-builder-lib ships with electron-builder).
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration: (config: unknown, logger: { isEnabled: boolean; add: () => void }) => Promise<void>
}
const minimatch = require('minimatch') as (path: string, pattern: string, options?: { dot?: boolean }) => boolean

const ROOT = join(import.meta.dirname, '..')
interface BuilderConfig {
  appId: string
  deb?: { depends?: string[] }
  asar: boolean
  asarUnpack: string[]
  afterPack: string
  files: string[]
  linux: { target: string[] }
  mac: { target: string[] }
  win: { target: string[] }
}
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  scripts: Record<string, string>
  homepage?: string
  repository?: { url?: string }
}
// electron-builder's own default dependencies of a deb package (what a `depends` list replaces).
const { default: FpmTarget } = require('app-builder-lib/out/targets/FpmTarget.js') as {
  default: { prototype: { getDefaultDepends(target: string): string[] } }
}

/** Files under a folder (bounded depth: native packages are shallow). */
function walk(dir: string, depth = 8): string[] {
  if (depth === 0 || !existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path, depth - 1) : [path]
  })
}

const unpacked = (path: string): boolean => config.asarUnpack.some((pattern) => minimatch(path, pattern, { dot: true }))

describe('electron-builder.yml', () => {
  it("passes electron-builder's schema", async () => {
    await expect(validateConfiguration(config, { isEnabled: false, add: () => {} })).resolves.toBeUndefined()
  })

  it('builds AppImage and deb, dmg, nsis', () => {
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']))
    expect(config.mac.target).toContain('dmg')
    expect(config.win.target).toContain('nsis')
  })

  it('packs into an asar and flips the fuses after packing', () => {
    expect(config.asar).toBe(true)
    expect(config.afterPack).toBe('scripts/after-pack-fuses.cjs')
    expect(existsSync(join(ROOT, config.afterPack))).toBe(true)
  })

  it('is what `npm run dist` runs, after building', () => {
    // `npm run build`: electron-vite's three builds and the command line's (packaging-cli.test.ts).
    expect(pkg.scripts['dist']).toMatch(/^npm run build && electron-builder\b/)
    expect(pkg.scripts['build']).toMatch(/^electron-vite build\b/)
  })

  it.each(['ssh2', 'node-pty', '@napi-rs/keyring'])('unpacks the native module %s from the asar', (name) => {
    expect(pkg.dependencies[name]).toBeDefined()
    expect(unpacked(`node_modules/${name}/package.json`)).toBe(true)
  })

  it('unpacks every .node binary of every runtime dependency', () => {
    const binaries = Object.keys(pkg.dependencies)
      .flatMap((name) => walk(join(ROOT, 'node_modules', name)))
      .map((path) => relative(ROOT, path).split('\\').join('/'))
      .filter((path) => path.endsWith('.node'))
    expect(binaries.length).toBeGreaterThan(0)
    expect(binaries.filter((path) => !unpacked(path))).toEqual([])
  })

  it("the deb depends on everything electron-builder's defaults name, and on the Secret Service library", () => {
    const defaults = FpmTarget.prototype.getDefaultDepends.call(undefined, 'deb')
    expect(defaults).toEqual(expect.arrayContaining(['libgtk-3-0', 'xdg-utils']))
    const effective = config.deb?.depends ?? defaults
    expect(effective).toEqual(expect.arrayContaining([...defaults, 'libsecret-1-0', 'libnotify4']))
  })

  it('package.json has the homepage and repository the deb target needs', () => {
    expect(pkg.homepage).toMatch(/^https:\/\//)
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\//)
  })

  it("the app's Windows notification identity is the installer's appId", async () => {
    const { APP_ID } = await import('../src/main/windows/desktop-integration')
    expect(config.appId).toBe(APP_ID)
  })

  it('ships the built app, not the sources', () => {
    expect(config.files).toContain('out/**')
    expect(config.files.some((f) => f === 'src/**' || f.startsWith('src/'))).toBe(false)
  })
})
