/**
 * What a login into an emulated instance sees: its own home folder and user name, and a clean
 * environment. The emulator's own environment is not passed through (it may hold secrets of the
 * person running it); only PATH and the locale come along so commands behave as usual.
 */
import { existsSync } from 'node:fs'

export interface ShellContext {
  home: string
  username: string
  term?: string
  /** Variables the client sent with `env` requests, already filtered by acceptsClientEnv. */
  clientEnv?: Record<string, string>
  /** The instance's own commands (the emulated nvidia-smi), first on PATH. */
  binDir?: string
  /** The instance's own tmux socket folder (instance-tmux.ts), so instances never share a tmux server. */
  tmuxDir?: string
}

export function loginShell(
  environment: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  exists: (path: string) => boolean = existsSync
): string {
  if (platform === 'win32') return windowsShell(environment, exists)
  const candidate = environment.SHELL
  if (candidate && candidate.startsWith('/') && exists(candidate)) return candidate
  return '/bin/bash'
}

/**
 * Windows has no /bin/bash: Windows PowerShell, which every Windows 10 and 11 has, is the nearest
 * to a Linux login (ls, cd, pwd, cat and echo work); cmd.exe where it is missing.
 */
function windowsShell(environment: NodeJS.ProcessEnv, exists: (path: string) => boolean): string {
  const root = environment['SystemRoot'] ?? environment['SYSTEMROOT'] ?? 'C:\\Windows'
  const powershell = `${root}\\System32\\WindowsPowerShell\\v1.0\\powershell.exe`
  if (exists(powershell)) return powershell
  return environment['ComSpec'] ?? environment['COMSPEC'] ?? `${root}\\System32\\cmd.exe`
}

/** How the login shell runs a command line (`exec`), or an interactive session (no command). */
export function shellArguments(shell: string, command: string | undefined): string[] {
  const name = shell.split(/[\\/]/).pop()!.toLowerCase()
  if (name === 'powershell.exe' || name === 'pwsh.exe')
    return command === undefined ? ['-NoLogo'] : ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', command]
  if (name === 'cmd.exe') return command === undefined ? [] : ['/d', '/s', '/c', command]
  return command === undefined ? [] : ['-c', command]
}

/**
 * Windows programs need a few system variables to start at all (PowerShell fails without
 * SystemRoot); they hold no secrets of the person running the emulator.
 */
const WINDOWS_SYSTEM_VARIABLES = [
  'SystemRoot',
  'SystemDrive',
  'windir',
  'ComSpec',
  'PATHEXT',
  'TEMP',
  'TMP',
  'OS',
  'PROCESSOR_ARCHITECTURE',
  'NUMBER_OF_PROCESSORS'
]

export function shellEnvironment(
  context: ShellContext,
  environment: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform
): Record<string, string> {
  const env: Record<string, string> = {
    HOME: context.home,
    USER: context.username,
    LOGNAME: context.username,
    SHELL: loginShell(environment, platform),
    PATH: [context.binDir, environment.PATH ?? '/usr/local/bin:/usr/bin:/bin'].filter(Boolean).join(platform === 'win32' ? ';' : ':'),
    LANG: environment.LANG ?? 'C.UTF-8'
  }
  if (platform === 'win32') {
    for (const name of WINDOWS_SYSTEM_VARIABLES) {
      const value = environment[name]
      if (value !== undefined) env[name] = value
    }
    env['USERPROFILE'] = context.home
  }
  if (context.term) env.TERM = context.term
  if (context.tmuxDir) env['TMUX_TMPDIR'] = context.tmuxDir
  return { ...env, ...context.clientEnv }
}

/**
 * What the terminal shows when the shell cannot start (the session then ends with exit status
 * 127): the shell, the reason, and what to do about the known causes.
 */
export function shellStartFailure(shell: string, error: unknown, platform: NodeJS.Platform = process.platform): string {
  const reason = error instanceof Error ? error.message : String(error)
  const hint =
    platform === 'darwin' && /posix_spawnp? failed/i.test(reason)
      ? " On macOS this means node-pty's spawn-helper is not executable: run `npm rebuild node-pty` in Cloud Tray's folder (npm install does it through the postinstall script), or reinstall Cloud Tray."
      : /ENOENT|not found|cannot find/i.test(reason)
        ? ` ${shell} does not exist on this computer; set SHELL to a shell that does before starting Cloud Tray.`
        : ''
  return `Could not start the shell ${shell}: ${reason.replace(/\.$/, '')}.${hint}`
}

/** Like OpenSSH's default AcceptEnv: the locale only. Anything else (LD_PRELOAD, PATH) is refused. */
export function acceptsClientEnv(name: string): boolean {
  return name === 'LANG' || /^LC_[A-Z]+$/.test(name)
}
