import { createServer, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { OpenSshServer, opensshAvailable, opensshMissing } from './openssh-server'

describe('OpenSSH for the fixture', () => {
  it('is there on Linux with openssh-server installed and on macOS; never on Windows', () => {
    expect(opensshMissing('linux', () => true)).toBeUndefined()
    expect(opensshMissing('darwin', () => true)).toBeUndefined()
    expect(opensshMissing('linux', () => false)).toMatch(/apt-get install openssh-server/)
    expect(opensshMissing('win32', () => true)).toMatch(/Windows has no OpenSSH server/)
  })
})

describe.skipIf(!opensshAvailable())('the fixture sshd and its port', () => {
  /** A server on a loopback port that greets like another SSH server (the emulator's, say). */
  async function otherServer(): Promise<{ port: number; close: () => Promise<void> }> {
    const server = createServer((socket) => {
      // A probe that hangs up at once resets the socket: nothing to do about it here.
      socket.on('error', () => undefined)
      socket.end('SSH-2.0-ssh2js1.17.0\r\n')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) }
  }

  it('a port another server holds is not taken for this sshd', async () => {
    const other = await otherServer()
    const sshd = new OpenSshServer()
    sshd.port = other.port
    try {
      await expect(sshd.start()).rejects.toThrow(/Address already in use/)
    } finally {
      await sshd.dispose()
      await other.close()
    }
  })

  it('a free port taken before sshd binds it: another is picked, and sshd answers there', async () => {
    const other = await otherServer()
    const picks: number[] = []
    class Unlucky extends OpenSshServer {
      protected override async pickPort(): Promise<number> {
        const port = picks.length === 0 ? other.port : await super.pickPort()
        picks.push(port)
        return port
      }
    }
    const sshd = new Unlucky()
    try {
      await sshd.start()
      expect(picks).toHaveLength(2)
      expect(sshd.port).toBe(picks[1])
      expect(sshd.port).not.toBe(other.port)
    } finally {
      await sshd.dispose()
      await other.close()
    }
  })
})
