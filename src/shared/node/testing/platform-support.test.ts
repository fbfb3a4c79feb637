import { describe, expect, it } from 'vitest'
import { posixFileModesMissing, posixShellMissing } from './platform-support'

describe('what a platform truly lacks', () => {
  it.each(['linux', 'darwin'] as const)('%s lacks nothing these tests need', (platform) => {
    expect([posixShellMissing(platform), posixFileModesMissing(platform)]).toEqual([undefined, undefined])
  })

  it('Windows has no POSIX shell for the Sandbox and no POSIX file modes', () => {
    expect(posixShellMissing('win32')).toMatch(/PowerShell/)
    expect(posixFileModesMissing('win32')).toMatch(/no POSIX file modes/)
  })
})
