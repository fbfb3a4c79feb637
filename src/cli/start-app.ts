/**
 * `--start`: starts the installed app hidden in the tray (its `--hidden` flag, the one a start at
 * login uses) and waits until it answers. The app is found next to this command line, which the
 * installers put inside it (`<app>/resources/cli/`); a command line from a source checkout has
 * no app next to it and says how to start one instead.
 */
import { spawn } from 'node:child_process'
import { accessSync, constants, existsSync, readdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { AppNotRunningError, connectToApp } from './app-client'
import type { CliContext } from './context'

export interface Launcher {
  command: string
  args: string[]
  /** The app, for the message while it starts. */
  app: string
}

export interface LauncherFs {
  exists(path: string): boolean
  executable(path: string): boolean
  list(dir: string): string[]
}

export const realFs: LauncherFs = {
  exists: existsSync,
  executable(path) {
    try {
      accessSync(path, constants.X_OK)
      return true
    } catch {
      return false
    }
  },
  list(dir) {
    try {
      return readdirSync(dir)
    } catch {
      return []
    }
  }
}

/** How to start the app this command line came with; undefined when it did not come with one. */
export function installedAppLauncher(cliFile: string, platform: NodeJS.Platform, fs: LauncherFs = realFs): Launcher | undefined {
  const cliDir = dirname(cliFile)
  if (basename(cliDir) !== 'cli') return undefined
  const resources = dirname(cliDir)
  if (platform === 'darwin') {
    // <Name>.app/Contents/Resources/cli: LaunchServices starts it in the background.
    const bundle = dirname(dirname(resources))
    if (basename(dirname(resources)) !== 'Contents' || !bundle.endsWith('.app') || !fs.exists(bundle)) return undefined
    return { command: 'open', args: ['-g', '-a', bundle, '--args', '--hidden'], app: bundle }
  }
  if (basename(resources).toLowerCase() !== 'resources') return undefined
  const appDir = dirname(resources)
  if (platform === 'win32') {
    const exe = ['Cloud Tray.exe', ...fs.list(appDir).filter((name) => /\.exe$/i.test(name) && !/^uninstall/i.test(name))]
      .map((name) => join(appDir, name))
      .find((path) => fs.exists(path))
    return exe ? { command: exe, args: ['--hidden'], app: exe } : undefined
  }
  // Linux: electron-builder names the binary after the package (cloud-tray).
  const binary = join(appDir, 'cloud-tray')
  return fs.executable(binary) ? { command: binary, args: ['--hidden'], app: binary } : undefined
}

const START_WAIT_MS = 60_000

export async function startApp(context: CliContext): Promise<void> {
  const launcher = installedAppLauncher(context.cliFile, process.platform)
  if (!launcher) {
    throw new AppNotRunningError(
      'Cloud Tray is not running, and this cloud-tray is not part of an installed Cloud Tray, so --start cannot start it. ' +
        'In a source checkout, start it with `npm run web` (or `npm start`).',
      true
    )
  }
  if (context.io.err.isTTY) context.io.err.write(`Starting Cloud Tray in the tray (${launcher.app})…\n`)
  // The app gets the environment this command line was given (the launcher set the CA bundle aside).
  const { CLOUD_TRAY_NODE_EXTRA_CA_CERTS: extraCa, ...env } = process.env
  const child = spawn(launcher.command, launcher.args, {
    detached: true,
    stdio: 'ignore',
    env: extraCa ? { ...env, NODE_EXTRA_CA_CERTS: extraCa } : env
  })
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve)
    child.once('error', (error) => reject(new AppNotRunningError(`Cloud Tray could not be started (${launcher.app}): ${error.message}`)))
  })
  await spawned
  child.unref()
  const deadline = Date.now() + START_WAIT_MS
  for (;;) {
    try {
      ;(await connectToApp(context.place)).close()
      return
    } catch (error) {
      if (!(error instanceof AppNotRunningError) || !error.absent) throw error
      if (child.exitCode !== null && child.exitCode !== 0) {
        throw new AppNotRunningError(
          `Cloud Tray stopped as it started (exit ${child.exitCode}); start it from your applications to see why.`
        )
      }
      if (Date.now() > deadline) throw new AppNotRunningError(`Cloud Tray was started but did not answer within ${START_WAIT_MS / 1000} s.`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}
