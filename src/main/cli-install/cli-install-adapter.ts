/**
 * "Install Command Line Tool…" in Electron: shows the plan (cli-install.ts) in a dialog, asks,
 * does it, and says what was done. The system calls: a symbolic link (macOS, with the
 * administrator through osascript when needed), the user's PATH through PowerShell (Windows;
 * the new value passes in an environment variable, never inside the command).
 */
import { execFile } from 'node:child_process'
import { lstat, readlink, symlink, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { dialog } from 'electron'
import { MAC_LINK_DIR, adminLinkScript, cliInstallPlan, installCli, type Existing, type InstallSystem } from './cli-install'

const run = promisify(execFile)
const POWERSHELL = ['-NoProfile', '-NonInteractive', '-Command']

async function existingAt(path: string): Promise<Existing> {
  try {
    const stats = await lstat(path)
    return stats.isSymbolicLink() ? { kind: 'link', target: await readlink(path) } : { kind: 'other' }
  } catch {
    return { kind: 'none' }
  }
}

const system: InstallSystem = {
  async link(target, path) {
    const now = await existingAt(path)
    if (now.kind === 'other') throw new Error(`${path} appeared meanwhile and is not a link Cloud Tray made; it was left alone.`)
    if (now.kind === 'link') await unlink(path)
    await symlink(target, path)
  },
  async linkAsAdmin(target, path) {
    await run('osascript', ['-e', adminLinkScript(target, path)])
  },
  async userPath() {
    const { stdout } = await run('powershell.exe', [...POWERSHELL, "[Environment]::GetEnvironmentVariable('Path', 'User')"])
    return stdout.replace(/\r?\n$/, '')
  },
  async setUserPath(value) {
    await run('powershell.exe', [...POWERSHELL, "[Environment]::SetEnvironmentVariable('Path', $env:CLOUD_TRAY_USER_PATH, 'User')"], {
      env: { ...process.env, CLOUD_TRAY_USER_PATH: value }
    })
  }
}

export async function installCommandLineTool(): Promise<void> {
  const existing = process.platform === 'darwin' ? await existingAt(join(MAC_LINK_DIR, 'cloud-tray')) : { kind: 'none' as const }
  const plan = cliInstallPlan(process.platform, process.resourcesPath, existing)
  if (!plan) return
  if (plan.actions.length === 0) {
    await dialog.showMessageBox({ type: 'info', message: 'The cloud-tray command was not installed', detail: plan.summary })
    return
  }
  const { response } = await dialog.showMessageBox({
    type: 'question',
    buttons: ['Install', 'Cancel'],
    defaultId: 0,
    cancelId: 1,
    message: 'Install the cloud-tray command?',
    detail: plan.summary
  })
  if (response !== 0) return
  try {
    const done = await installCli(plan, system)
    await dialog.showMessageBox({ type: 'info', message: 'The cloud-tray command is installed', detail: done.join('\n') })
  } catch (error) {
    dialog.showErrorBox('The cloud-tray command was not installed', `${(error as Error).message}\n\nNothing else was changed.`)
  }
}
