import { describe, expect, it } from 'vitest'
import { loginShell, shellArguments, shellEnvironment, shellStartFailure } from './shell-environment'

const WINDOWS_ENV = {
  SystemRoot: 'C:\\Windows',
  ComSpec: 'C:\\Windows\\system32\\cmd.exe',
  PATH: 'C:\\Windows\\system32',
  PATHEXT: '.COM;.EXE',
  SECRET_TOKEN: 'x'
}

describe('the login shell', () => {
  it('POSIX: $SHELL when it is an absolute path that exists, else /bin/bash', () => {
    const exists = (path: string): boolean => path === '/bin/zsh'
    expect(loginShell({ SHELL: '/bin/zsh' }, 'linux', exists)).toBe('/bin/zsh')
    expect(loginShell({ SHELL: '/bin/fish' }, 'darwin', exists)).toBe('/bin/bash')
    expect(loginShell({ SHELL: 'zsh' }, 'linux', () => true)).toBe('/bin/bash')
  })

  it('Windows: never /bin/bash; Windows PowerShell, else cmd.exe', () => {
    const powershell = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'
    expect(loginShell(WINDOWS_ENV, 'win32', (path) => path === powershell)).toBe(powershell)
    expect(loginShell(WINDOWS_ENV, 'win32', () => false)).toBe('C:\\Windows\\system32\\cmd.exe')
    expect(loginShell({}, 'win32', () => false)).toBe('C:\\Windows\\System32\\cmd.exe')
  })

  it.each([
    ['/bin/bash', undefined, []],
    ['/bin/bash', 'echo hi', ['-c', 'echo hi']],
    ['C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', undefined, ['-NoLogo']],
    [
      'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      'echo hi',
      ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', 'echo hi']
    ],
    ['C:\\Windows\\system32\\cmd.exe', 'echo hi', ['/d', '/s', '/c', 'echo hi']]
  ])('%s runs %s with %j', (shell, command, args) => {
    expect(shellArguments(shell, command)).toEqual(args)
  })

  it('Windows: the system variables a program needs to start, and nothing else of the host', () => {
    const env = shellEnvironment({ home: 'C:\\homes\\i-1', username: 'root' }, WINDOWS_ENV, 'win32')
    expect(env).toMatchObject({ SystemRoot: 'C:\\Windows', PATHEXT: '.COM;.EXE', USERPROFILE: 'C:\\homes\\i-1', HOME: 'C:\\homes\\i-1' })
    expect(env).not.toHaveProperty('SECRET_TOKEN')
    expect(shellEnvironment({ home: '/h', username: 'root' }, { SystemRoot: 'x', PATH: '/bin' }, 'linux')).not.toHaveProperty('SystemRoot')
  })
})

describe('shellStartFailure', () => {
  it("macOS's posix_spawnp failure: says what to do about spawn-helper", () => {
    const text = shellStartFailure('/bin/zsh', new Error('posix_spawnp failed.'), 'darwin')
    expect(text).toMatch(
      /^Could not start the shell \/bin\/zsh: posix_spawnp failed\. On macOS this means node-pty's spawn-helper is not executable/
    )
    expect(text).toContain('npm rebuild node-pty')
  })

  it('a shell that does not exist: says so', () => {
    expect(shellStartFailure('C:\\nope.exe', new Error('File not found: C:\\nope.exe'), 'win32')).toMatch(/does not exist on this computer/)
  })

  it('anything else: the reason as it came', () => {
    expect(shellStartFailure('/bin/bash', new Error('forkpty(3) failed.'), 'linux')).toBe(
      'Could not start the shell /bin/bash: forkpty(3) failed.'
    )
  })
})
