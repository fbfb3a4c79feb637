/**
 * How the installers carry `cloud-tray`: electron-builder.yml puts the built command line
 * (out/cli) in the app's resources, outside the asar; the deb and rpm install scripts are
 * electron-builder's own with only the PATH link changed (checked line by line against the
 * vendor's), and link /usr/bin/cloud-tray to the launcher, which finds its bundle through any
 * chain of links and says so when Node.js is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { buildCli } from '../src/cli/testing/built-cli'

const ROOT = join(import.meta.dirname, '..')
const require = createRequire(import.meta.url)
const VENDOR = join(dirname(require.resolve('app-builder-lib/package.json')), 'templates', 'linux')
interface Config {
  files: string[]
  extraResources?: { from: string; to: string }[]
  deb?: { afterInstall?: string; afterRemove?: string }
  rpm?: { afterInstall?: string; afterRemove?: string }
}
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Config
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; scripts: Record<string, string> }

/** electron-builder's own template rendering (FpmTarget.js writeConfigFile). */
const render = (template: string, options: Record<string, string>): string =>
  template.replace(/\${([a-zA-Z]+)}/g, (_, name: string) => {
    if (!(name in options)) throw new Error(`Macro ${name} is not defined`)
    return options[name]!
  })

const scratch: string[] = []
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
})

describe('the command line in the installers', () => {
  it('is built with the app and copied beside it, outside the asar', () => {
    expect(pkg.scripts['build']).toMatch(/vite build -c vite\.cli\.config\.ts/)
    expect(pkg.scripts['dist']).toMatch(/^npm run build && electron-builder/)
    expect(config.extraResources).toContainEqual({ from: 'out/cli', to: 'cli' })
    // Not in the asar as well: `files` packs only the app's own out/ folders (main, preload, renderer).
    expect(config.files.filter((glob: string) => /^out\//.test(glob))).toEqual(['out/main/**', 'out/preload/**', 'out/renderer/**'])
  })

  it('deb and rpm use install scripts that are electron-builder’s, but for the one link', () => {
    for (const target of [config.deb, config.rpm]) {
      expect(target?.afterInstall).toBe('scripts/packaging/linux-after-install.tpl')
      expect(target?.afterRemove).toBe('scripts/packaging/linux-after-remove.tpl')
    }
    for (const [ours, theirs] of [
      ['linux-after-install.tpl', 'after-install.tpl'],
      ['linux-after-remove.tpl', 'after-remove.tpl']
    ] as const) {
      const mine = readFileSync(join(ROOT, 'scripts', 'packaging', ours), 'utf8').split('\n')
      const vendor = readFileSync(join(VENDOR, theirs), 'utf8').split('\n')
      // Every vendor line that is not about the /usr/bin link is still there, in order.
      const kept = vendor.filter(
        (line) => !line.includes('/usr/bin/${executable}') && !/update-alternatives --(install|remove) /.test(line)
      )
      let at = 0
      for (const line of kept) {
        const found = mine.indexOf(line, at)
        expect(found, `${ours} keeps “${line}”`).toBeGreaterThanOrEqual(0)
        at = found + 1
      }
      expect(mine.join('\n')).not.toContain('/usr/bin/${executable}')
    }
  })

  it('renders to a script that links /usr/bin/cloud-tray to the launcher (and removes that link)', () => {
    const options = { executable: 'cloud-tray', sanitizedProductName: 'Cloud Tray', productFilename: 'Cloud Tray' }
    const install = render(readFileSync(join(ROOT, 'scripts', 'packaging', 'linux-after-install.tpl'), 'utf8'), options)
    const remove = render(readFileSync(join(ROOT, 'scripts', 'packaging', 'linux-after-remove.tpl'), 'utf8'), options)
    const dir = mkdtempSync(join(tmpdir(), 'ct-pkg-'))
    scratch.push(dir)
    for (const [name, text] of [
      ['install', install],
      ['remove', remove]
    ] as const) {
      writeFileSync(join(dir, name), text)
      expect(spawnSync('bash', ['-n', join(dir, name)]).status, `${name} parses`).toBe(0)
    }
    expect(install).toContain("CLI='/opt/Cloud Tray/resources/cli/cloud-tray'")
    expect(install).toContain(
      `update-alternatives --install '/usr/bin/cloud-tray' 'cloud-tray' "$CLI" 100 || ln -sf "$CLI" '/usr/bin/cloud-tray'`
    )
    expect(install).toContain("update-alternatives --remove 'cloud-tray' '/opt/Cloud Tray/cloud-tray'")
    expect(remove).toContain("update-alternatives --remove 'cloud-tray' '/opt/Cloud Tray/resources/cli/cloud-tray'")
  })

  it('has a launcher that runs the bundle through any chain of links, and says when Node.js is missing', () => {
    const cli = dirname(buildCli())
    expect(existsSync(join(cli, 'cloud-tray.cmd'))).toBe(true)
    const bin = mkdtempSync(join(tmpdir(), 'ct-bin-'))
    scratch.push(bin)
    // /usr/bin/cloud-tray → /etc/alternatives/cloud-tray → <app>/resources/cli/cloud-tray, in miniature.
    symlinkSync(join(cli, 'cloud-tray'), join(bin, 'alternative'))
    symlinkSync('alternative', join(bin, 'cloud-tray'))
    expect(execFileSync(join(bin, 'cloud-tray'), ['--version'], { encoding: 'utf8', cwd: tmpdir() })).toBe(`cloud-tray ${pkg.version}\n`)

    // A PATH with the tools the launcher uses, and no node.
    const tools = mkdtempSync(join(tmpdir(), 'ct-tools-'))
    scratch.push(tools)
    for (const tool of ['dirname', 'readlink'])
      symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(tools, tool))
    const run = spawnSync('/bin/sh', [join(bin, 'cloud-tray'), '--version'], { encoding: 'utf8', env: { PATH: tools } })
    expect(run.status).toBe(1)
    expect(run.stderr).toBe('cloud-tray needs Node.js 20.19 or newer on your PATH (https://nodejs.org); Cloud Tray itself does not.\n')
  })
})
