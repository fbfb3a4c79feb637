/**
 * electron-builder.yml and the release workflow, checked without packaging: the config satisfies
 * electron-builder's own schema, builds every installer of record, unpacks only native binaries
 * and node-pty's helpers, ships no test caches, depends on what the app needs, signs with a
 * minimal entitlements file, runs the fuses and signing hooks, and publishes to a draft release.
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
  rpm?: { depends?: string[] }
  asar: boolean
  asarUnpack: string[]
  afterPack: string
  beforePack: string
  afterSign: string
  files: string[]
  extraResources: { from: string; to: string; filter: string[] }[]
  linux: { target: string[] }
  mac: {
    target: string[]
    hardenedRuntime: boolean
    entitlements: string
    entitlementsInherit: string
    notarize: boolean
    extendInfo: Record<string, string>
  }
  win: { target: string[]; icon: string }
  nsis: { installerIcon: string }
  publish: { provider: string; owner: string; repo: string; releaseType: string }
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

  it('builds deb and rpm (the Linux installers of record) and the AppImage, dmg and zip, nsis', () => {
    expect(config.linux.target).toEqual(['deb', 'rpm', 'AppImage'])
    // The zip is what electron-updater downloads on macOS (Squirrel.Mac); the dmg is for people.
    expect(config.mac.target).toEqual(['dmg', 'zip'])
    expect(config.win.target).toEqual(['nsis'])
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

  it.each(['ssh2', 'node-pty', '@napi-rs/keyring', 'cpu-features', 'electron-updater'])(
    "keeps %s's JavaScript inside the asar, under the integrity fuse",
    (name) => {
      for (const file of walk(join(ROOT, 'node_modules', name)).map((path) => relative(ROOT, path).split('\\').join('/'))) {
        if (/\.(c?js|mjs|json)$/.test(file)) expect(unpacked(file), file).toBe(false)
      }
    }
  )

  it("unpacks node-pty's helpers, which it starts by path: spawn-helper, winpty and conpty", () => {
    for (const helper of [
      'node_modules/node-pty/build/Release/spawn-helper',
      'node_modules/node-pty/prebuilds/darwin-arm64/spawn-helper',
      'node_modules/node-pty/prebuilds/win32-x64/winpty-agent.exe',
      'node_modules/node-pty/prebuilds/win32-x64/winpty.dll',
      'node_modules/node-pty/prebuilds/win32-x64/conpty/conpty.dll',
      'node_modules/node-pty/prebuilds/win32-x64/conpty/OpenConsole.exe'
    ])
      expect(unpacked(helper), helper).toBe(true)
    // Every helper the installed node-pty has is among them.
    const helpers = walk(join(ROOT, 'node_modules', 'node-pty'))
      .map((path) => relative(ROOT, path).split('\\').join('/'))
      .filter((file) => /(spawn-helper|\.exe|\.dll)$/.test(file) && !/\/(deps|src|third_party)\//.test(file))
    expect(helpers.filter((file) => !unpacked(file))).toEqual([])
  })

  it('unpacks nothing by whole package', () => {
    expect(config.asarUnpack.filter((pattern) => /\/\*\*$/.test(pattern))).toEqual([])
  })

  it('unpacks every .node binary of every runtime dependency', () => {
    const binaries = Object.keys(pkg.dependencies)
      .flatMap((name) => walk(join(ROOT, 'node_modules', name)))
      .map((path) => relative(ROOT, path).split('\\').join('/'))
      .filter((path) => path.endsWith('.node'))
    expect(binaries.length).toBeGreaterThan(0)
    expect(binaries.filter((path) => !unpacked(path))).toEqual([])
  })

  it.each([
    ['deb', ['libgtk-3-0', 'xdg-utils'], ['libsecret-1-0', 'libnotify4']],
    ['rpm', ['gtk3', 'xdg-utils'], ['libsecret', 'libnotify']]
  ] as const)(
    "the %s depends on everything electron-builder's defaults name, and on the Secret Service library",
    (target, sample, ours) => {
      const defaults = FpmTarget.prototype.getDefaultDepends.call(undefined, target)
      expect(defaults).toEqual(expect.arrayContaining([...sample]))
      const effective = config[target]?.depends ?? defaults
      expect(effective).toEqual(expect.arrayContaining([...defaults, ...ours]))
    }
  )

  it('ships only the built app: no test caches npm test leaves in out/, no sources', () => {
    const shipped = (path: string): boolean => {
      const include = config.files.filter((f) => !f.startsWith('!'))
      const exclude = config.files.filter((f) => f.startsWith('!')).map((f) => f.slice(1))
      return include.some((p) => minimatch(path, p, { dot: true })) && !exclude.some((p) => minimatch(path, p, { dot: true }))
    }
    for (const path of [
      'out/main/index.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/assets/index-abc.js',
      'package.json'
    ])
      expect(shipped(path), path).toBe(true)
    for (const path of [
      'out/electron-stand-in/0123456789abcdef/main/index.js',
      'out/electron-stand-in/0123456789abcdef/stand-in/electron.mjs',
      'out/web-renderer/0123456789abcdef/index.html',
      'out/electron-renderer/0123456789abcdef/index.html',
      'out/main/index.js.map',
      'src/main/index.ts',
      'dist/Cloud Tray-0.1.0.AppImage'
    ])
      expect(shipped(path), path).toBe(false)
  })

  it('macOS: hardened runtime with a minimal entitlements file (allow-jit only), notarized by the afterSign hook, alert-style notifications', () => {
    expect(config.mac.hardenedRuntime).toBe(true)
    expect(config.mac.entitlements).toBe('resources/entitlements.mac.plist')
    expect(config.mac.entitlementsInherit).toBe(config.mac.entitlements)
    const plist = readFileSync(join(ROOT, config.mac.entitlements), 'utf8')
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\s*\/>/g)].map((m) => m[1])
    expect(keys).toEqual(['com.apple.security.cs.allow-jit'])
    expect(plist).not.toMatch(/<false\s*\/>/)
    expect(config.mac.notarize).toBe(false)
    expect(config.afterSign).toBe('scripts/after-sign.cjs')
    expect(config.mac.extendInfo['NSUserNotificationAlertStyle']).toBe('alert')
  })

  it('Windows: .ico icons for the installer and the tray', async () => {
    const { icoSizes } = await import('./ico')
    expect(config.win.icon).toBe('resources/icon.ico')
    expect(config.nsis.installerIcon).toBe('resources/icon.ico')
    expect(icoSizes(readFileSync(join(ROOT, config.win.icon)))).toEqual(expect.arrayContaining([16, 32, 48, 256]))
    expect(config.extraResources).toContainEqual({ from: 'resources/tray', to: 'tray', filter: ['*.ico'] })
    for (const state of ['idle', 'running', 'busy', 'attention'])
      expect(icoSizes(readFileSync(join(ROOT, 'resources', 'tray', `tray-${state}.ico`)))).toEqual([16, 20, 24, 32, 40, 48])
  })

  it('the signing and notarization hooks run, and skip with a printed reason when no secret is present', async () => {
    expect(config.beforePack).toBe('scripts/before-pack.cjs')
    const { signingPlan, beforePack } = require('./release-signing.cjs') as {
      signingPlan(platform: string, env: Record<string, string | undefined>): { sign: boolean; notarize: string | false; reasons: string[] }
      beforePack(context: { electronPlatformName: string }): Promise<void>
    }
    expect(signingPlan('darwin', {})).toMatchObject({ sign: false, notarize: false })
    expect(signingPlan('darwin', {}).reasons.join('\n')).toMatch(/signing skipped: no CSC_LINK[\s\S]*notarization skipped/)
    expect(signingPlan('darwin', { CSC_LINK: 'x', CSC_KEY_PASSWORD: 'p' }).reasons).toEqual([
      expect.stringMatching(/notarization skipped: neither APPLE_API_KEY/)
    ])
    expect(signingPlan('darwin', { CSC_LINK: 'x', APPLE_API_KEY: 'k', APPLE_API_KEY_ID: 'i', APPLE_API_ISSUER: 'j' })).toEqual({
      sign: true,
      notarize: 'api-key',
      reasons: []
    })
    expect(signingPlan('win32', { WIN_CSC_LINK: '' }).reasons).toEqual([expect.stringMatching(/Windows signing skipped/)])
    expect(signingPlan('win32', { WIN_CSC_LINK: 'pfx' })).toMatchObject({ sign: true, reasons: [] })
    const printed: string[] = []
    const log = console.log
    console.log = (line: string) => void printed.push(line)
    try {
      await beforePack({ electronPlatformName: 'win32' })
    } finally {
      console.log = log
    }
    expect(printed.join('\n')).toMatch(/Windows signing skipped: no WIN_CSC_LINK/)
  })

  it('publishes to a draft GitHub release (the update feed), and only when asked', () => {
    expect(config.publish).toEqual({ provider: 'github', owner: 'cloud-tray', repo: 'cloud-tray', releaseType: 'draft' })
    expect(pkg.scripts['dist']).toMatch(/--publish never/)
  })

  it("Wayland: the window's app_id (package.json desktopName) is the installed launcher's .desktop file", () => {
    const linux = config.linux as unknown as { executableName: string; desktop: { entry: Record<string, string> } }
    expect((pkg as { desktopName?: string }).desktopName).toBe(`${linux.executableName}.desktop`)
    expect(linux.desktop.entry['StartupWMClass']).toBe(linux.executableName)
  })

  it('package.json has the homepage and repository the deb target needs', () => {
    expect(pkg.homepage).toMatch(/^https:\/\//)
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\//)
  })

  it("the app's Windows notification identity is the installer's appId", async () => {
    const { APP_ID } = await import('../src/main/windows/desktop-integration')
    expect(config.appId).toBe(APP_ID)
  })
})

describe('the release workflow', () => {
  interface Step {
    name?: string
    run?: string
    env?: Record<string, string>
    if?: string
  }
  const release = parse(readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8'), { strict: true }) as {
    on: { push?: { tags?: string[] } }
    permissions: Record<string, string>
    jobs: Record<string, { strategy: { matrix: { os: string[] } }; steps: Step[] }>
  }
  const jobs = Object.values(release.jobs)
  const steps = jobs.flatMap((job) => job.steps)

  it('runs on a version tag, on Linux, macOS and Windows', () => {
    expect(release.on.push?.tags).toEqual(['v*'])
    expect(jobs.flatMap((job) => job.strategy.matrix.os).sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest'])
  })

  it('builds every target and publishes the installers and update feeds (to the draft release of electron-builder.yml)', () => {
    const build = steps.find((step) => /electron-builder --publish always/.test(step.run ?? ''))
    expect(build?.run).toMatch(/^npm run build && npx electron-builder --publish always$/)
    expect(build?.env?.['GH_TOKEN']).toBe('${{ secrets.GITHUB_TOKEN }}')
    expect(release.permissions['contents']).toBe('write')
    expect(steps.some((step) => /apt-get install[^\n]*\brpm\b/.test(step.run ?? ''))).toBe(true)
  })

  it('signs with the secrets where they exist, and passes nothing else', () => {
    const build = steps.find((step) => /electron-builder --publish always/.test(step.run ?? ''))!
    for (const name of ['CSC_LINK', 'CSC_KEY_PASSWORD', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER', 'WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD'])
      expect(build.env?.[name], name).toMatch(/secrets\./)
  })

  it('the CI workflow still runs the Electron specs on all three', () => {
    const ci = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as typeof release
    const ciJobs = Object.values(ci.jobs)
    expect(ciJobs.flatMap((job) => job.strategy.matrix.os).sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest'])
    expect(ciJobs.flatMap((job) => job.steps).filter((step) => /playwright test e2e\/electron/.test(step.run ?? ''))).toHaveLength(2)
  })
})
