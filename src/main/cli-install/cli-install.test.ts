/**
 * "Install Command Line Tool…": the plan it shows (exactly what goes where, per OS), and doing
 * it: a real link in a folder (macOS's way, here in a temp folder), the administrator's route
 * when the folder is not the user's, another program's file left alone, and the user's PATH
 * (Windows) changed once and only by adding the folder.
 */
import { lstatSync, mkdtempSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { symlink, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { adminLinkScript, cliInstallPlan, installCli, withFolder, type InstallSystem } from './cli-install'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const RESOURCES = '/Applications/Cloud Tray.app/Contents/Resources'

describe('the plan', () => {
  it('macOS: one link in /usr/local/bin to the bundle’s launcher, saying what it replaces', () => {
    expect(cliInstallPlan('darwin', RESOURCES)).toEqual({
      actions: [{ kind: 'link', path: '/usr/local/bin/cloud-tray', target: `${RESOURCES}/cli/cloud-tray` }],
      summary: `Cloud Tray will make one symbolic link, /usr/local/bin/cloud-tray, pointing to ${RESOURCES}/cli/cloud-tray. If your user may not write in /usr/local/bin, macOS asks for an administrator's password. The command line needs Node.js 20.19 or newer.`
    })
    expect(cliInstallPlan('darwin', RESOURCES, { kind: 'link', target: '/old/cloud-tray' })!.summary).toContain(
      'It replaces the link there now, which points to /old/cloud-tray.'
    )
    expect(cliInstallPlan('darwin', RESOURCES, { kind: 'other' })).toEqual({
      actions: [],
      summary:
        '/usr/local/bin/cloud-tray already exists and is not a link Cloud Tray made, so Cloud Tray leaves it alone. Remove it first to install cloud-tray there.'
    })
  })

  it('Windows: the launcher’s folder on the user’s PATH; Linux: none (the packages do it)', () => {
    const plan = cliInstallPlan('win32', 'C:\\Users\\ada\\AppData\\Local\\Programs\\Cloud Tray\\resources')!
    expect(plan.actions).toEqual([{ kind: 'user-path', folder: 'C:\\Users\\ada\\AppData\\Local\\Programs\\Cloud Tray\\resources\\cli' }])
    expect(plan.summary).toMatch(
      /^Cloud Tray will add C:\\Users\\ada\\.*\\resources\\cli \(where cloud-tray\.cmd is\) to your user PATH, in HKEY_CURRENT_USER\\Environment; nothing else is changed\./
    )
    expect(cliInstallPlan('linux', '/opt/Cloud Tray/resources')).toBeUndefined()
  })
})

describe('installing', () => {
  const realLinks = (adminCalls: string[]): InstallSystem => ({
    async link(target, path) {
      await unlink(path).catch(() => undefined)
      await symlink(target, path)
    },
    async linkAsAdmin(target, path) {
      adminCalls.push(`${target} -> ${path}`)
    },
    userPath: async () => '',
    setUserPath: async () => undefined
  })

  it('makes the link, replacing an old one of ours', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ct-install-'))
    dirs.push(dir)
    symlinkSync('/old/cloud-tray', join(dir, 'cloud-tray'))
    const plan = cliInstallPlan('darwin', RESOURCES, { kind: 'link', target: '/old/cloud-tray' }, dir)!
    const admin: string[] = []
    expect(await installCli(plan, realLinks(admin))).toEqual([`Made ${dir}/cloud-tray → ${RESOURCES}/cli/cloud-tray.`])
    expect(readlinkSync(join(dir, 'cloud-tray'))).toBe(`${RESOURCES}/cli/cloud-tray`)
    expect(admin).toEqual([])
  })

  it('asks for the administrator where the user may not write, and leaves another program’s file alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ct-install-'))
    dirs.push(dir)
    const admin: string[] = []
    const denied: InstallSystem = {
      ...realLinks(admin),
      link: async () => {
        throw Object.assign(new Error('permission denied'), { code: 'EACCES' })
      }
    }
    await installCli(cliInstallPlan('darwin', RESOURCES, { kind: 'none' }, dir)!, denied)
    expect(admin).toEqual([`${RESOURCES}/cli/cloud-tray -> ${dir}/cloud-tray`])

    writeFileSync(join(dir, 'cloud-tray'), 'someone else’s')
    expect(await installCli(cliInstallPlan('darwin', RESOURCES, { kind: 'other' }, dir)!, realLinks(admin))).toEqual([])
    expect(lstatSync(join(dir, 'cloud-tray')).isSymbolicLink()).toBe(false)
  })

  it('adds the folder to the user’s PATH once, keeping everything else', async () => {
    let path = 'C:\\Windows;C:\\Tools\\'
    const system: InstallSystem = {
      link: async () => undefined,
      linkAsAdmin: async () => undefined,
      userPath: async () => path,
      setUserPath: async (value) => void (path = value)
    }
    const plan = cliInstallPlan('win32', 'C:\\Programs\\Cloud Tray\\resources')!
    expect(await installCli(plan, system)).toEqual([
      'Added C:\\Programs\\Cloud Tray\\resources\\cli to your PATH. Open a new terminal to use cloud-tray.'
    ])
    expect(path).toBe('C:\\Windows;C:\\Tools\\;C:\\Programs\\Cloud Tray\\resources\\cli')
    expect(await installCli(plan, system)).toEqual(['C:\\Programs\\Cloud Tray\\resources\\cli is already on your PATH.'])
    expect(withFolder('c:\\programs\\cloud tray\\resources\\cli\\;X', 'C:\\Programs\\Cloud Tray\\resources\\cli')).toBe(
      'c:\\programs\\cloud tray\\resources\\cli\\;X'
    )
    expect(withFolder('', 'C:\\a')).toBe('C:\\a')
  })
})

describe('the administrator’s command', () => {
  it('keeps every path a quoted string, whatever it holds', () => {
    const script = adminLinkScript('/Applications/Cloud "Tray" \\ $(x).app/Contents/Resources/cli/cloud-tray', '/usr/local/bin/cloud-tray')
    expect(script).toBe(
      'do shell script "mkdir -p " & quoted form of "/usr/local/bin" & " && ln -sfn " & quoted form of "/Applications/Cloud \\"Tray\\" \\\\ $(x).app/Contents/Resources/cli/cloud-tray" & " " & quoted form of "/usr/local/bin/cloud-tray" with administrator privileges'
    )
  })
})
