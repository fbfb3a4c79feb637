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
}

export function loginShell(environment: NodeJS.ProcessEnv = process.env): string {
  const candidate = environment.SHELL
  if (candidate && candidate.startsWith('/') && existsSync(candidate)) return candidate
  return '/bin/bash'
}

export function shellEnvironment(context: ShellContext, environment: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {
    HOME: context.home,
    USER: context.username,
    LOGNAME: context.username,
    SHELL: loginShell(environment),
    PATH: environment.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: environment.LANG ?? 'C.UTF-8'
  }
  if (context.term) env.TERM = context.term
  return { ...env, ...context.clientEnv }
}

/** Like OpenSSH's default AcceptEnv: the locale only. Anything else (LD_PRELOAD, PATH) is refused. */
export function acceptsClientEnv(name: string): boolean {
  return name === 'LANG' || /^LC_[A-Z]+$/.test(name)
}
