import { describe, expect, it } from 'vitest'
import { posixFileModesMissing, posixShellMissing } from './platform-support'
import { opensshMissing } from '../ssh/testing/openssh-server'

describe('what a platform truly lacks', () => {
  it.each(['linux', 'darwin'] as const)('%s lacks nothing these tests need', (platform) => {
    expect([posixShellMissing(platform), posixFileModesMissing(platform)]).toEqual([undefined, undefined])
  })

  it('Windows has no POSIX shell for the Sandbox and no POSIX file modes', () => {
    expect(posixShellMissing('win32')).toMatch(/PowerShell/)
    expect(posixFileModesMissing('win32')).toMatch(/no POSIX file modes/)
  })
})

describe('OpenSSH for the fixture', () => {
  it('is there on Linux with openssh-server installed and on macOS; never on Windows', () => {
    expect(opensshMissing('linux', () => true)).toBeUndefined()
    expect(opensshMissing('darwin', () => true)).toBeUndefined()
    expect(opensshMissing('linux', () => false)).toMatch(/apt-get install openssh-server/)
    expect(opensshMissing('win32', () => true)).toMatch(/Windows has no OpenSSH server/)
  })
})
