import { describe, expect, it } from 'vitest'
import { opensshMissing } from './openssh-server'

describe('OpenSSH for the fixture', () => {
  it('is there on Linux with openssh-server installed and on macOS; never on Windows', () => {
    expect(opensshMissing('linux', () => true)).toBeUndefined()
    expect(opensshMissing('darwin', () => true)).toBeUndefined()
    expect(opensshMissing('linux', () => false)).toMatch(/apt-get install openssh-server/)
    expect(opensshMissing('win32', () => true)).toMatch(/Windows has no OpenSSH server/)
  })
})
