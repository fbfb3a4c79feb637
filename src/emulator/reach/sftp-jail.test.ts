/**
 * #24: the Sandbox instance's files panel shows its home as a real instance's (`/root`) and
 * cannot leave it. Against the built-in SSH server and OpenSSH's sftp-server over real sockets:
 * `..`, absolute paths and symlinks out are refused; everything inside works, links inside too.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ssh2, { type SFTPWrapper } from 'ssh2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { skipBecause } from '../../shared/node/testing/platform-support'
import type { EmulatorReach } from './index'
import { sftpServerPath } from './sftp-server'
import { shownHome } from './sftp-jail'
import { connectToInstance, freePort, reachInTempState, runInstance, userKey, type FakeCloud } from './testing/fake-cloud'

const alice = userKey()
let cloud: FakeCloud
let reach: EmulatorReach
let stateDir: string
let outside: string
let home: string
let client: ssh2.Client
let sftp: SFTPWrapper

/** An SFTP call as a promise; a refusal rejects with the server's status code. */
function call<T>(run: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))))
}
const denied = { code: 3 }

describe.skipIf(skipBecause(sftpServerPath() ? undefined : 'OpenSSH’s sftp-server is not installed', 'the Sandbox’s SFTP jail test'))(
  'the Sandbox instance’s SFTP stays in its home, shown as /root',
  () => {
    beforeAll(async () => {
      ;({ stateDir, cloud, reach } = await reachInTempState('reach-sftp-jail-', { alice: [alice.publicKey] }))
      outside = await mkdtemp(join(tmpdir(), 'reach-sftp-outside-'))
      writeFileSync(join(outside, 'secret.txt'), 'the user’s own file')
      const sshPort = await freePort()
      await runInstance(cloud, reach, 'inst-1', 'alice', { 22: sshPort })
      home = join(stateDir, 'emulator-reach', 'homes', 'inst-1')
      mkdirSync(join(home, 'work'))
      writeFileSync(join(home, 'work', 'notes.txt'), 'inside')
      symlinkSync(outside, join(home, 'escape'))
      symlinkSync(join(outside, 'secret.txt'), join(home, 'secret-link'))
      symlinkSync(join(outside, 'not-yet.txt'), join(home, 'dangling'))
      symlinkSync(join(home, 'work'), join(home, 'work-link'))
      client = await connectToInstance(reach, sshPort, { privateKey: alice.privateKey })
      sftp = await call<SFTPWrapper>((done) => client.sftp(done))
    })

    afterAll(async () => {
      sftp?.end()
      client?.end()
      await reach?.close()
      await rm(stateDir, { recursive: true, force: true })
      await rm(outside, { recursive: true, force: true })
    })

    it('shows the home as a real instance’s: /root for root, /home/<user> otherwise', async () => {
      expect(await call<string>((done) => sftp.realpath('.', done))).toBe('/root')
      expect(await call<string>((done) => sftp.realpath('work/../work', done))).toBe('/root/work')
      expect(await call<string>((done) => sftp.realpath('/root/work-link', done))).toBe('/root/work')
      expect(shownHome('root')).toBe('/root')
      expect(shownHome('ubuntu')).toBe('/home/ubuntu')
    })

    it('works inside: list, read, write, rename, make and remove folders, by absolute or relative path', async () => {
      const names = (await call<{ filename: string }[]>((done) => sftp.readdir('/root', done))).map((entry) => entry.filename).sort()
      expect(names).toEqual(['dangling', 'escape', 'secret-link', 'work', 'work-link'])
      expect((await call<Buffer>((done) => sftp.readFile('/root/work/notes.txt', done))).toString()).toBe('inside')
      await call<void>((done) => sftp.writeFile('/root/work/new.txt', 'written', done))
      await call<void>((done) => sftp.rename('/root/work/new.txt', 'work/renamed.txt', done))
      expect(readFileSync(join(home, 'work', 'renamed.txt'), 'utf8')).toBe('written')
      await call<void>((done) => sftp.mkdir('/root/made', done))
      await call<void>((done) => sftp.rmdir('made', done))
      expect(existsSync(join(home, 'made'))).toBe(false)
      // A link inside the home is followed; a link out can be seen (lstat, readlink) and removed.
      expect((await call<Buffer>((done) => sftp.readFile('/root/work-link/notes.txt', done))).toString()).toBe('inside')
      expect((await call<{ isSymbolicLink(): boolean }>((done) => sftp.lstat('/root/escape', done))).isSymbolicLink()).toBe(true)
      expect(await call<string>((done) => sftp.readlink('/root/work-link', done))).toBe('/root/work')
    })

    it.each([
      ['the parent of the home', (done: (error?: Error | null) => void) => sftp.readdir('/root/..', done)],
      ['.. from a relative path', (done: (error?: Error | null) => void) => sftp.readdir('../..', done)],
      ['an absolute path outside', (done: (error?: Error | null) => void) => sftp.stat('/etc/passwd', done)],
      ['the real folder by its real path', (done: (error?: Error | null) => void) => sftp.readdir(outside, done)],
      ['a folder link out', (done: (error?: Error | null) => void) => sftp.readdir('/root/escape', done)],
      ['a file through a folder link out', (done: (error?: Error | null) => void) => sftp.readFile('/root/escape/secret.txt', done)],
      ['a file link out', (done: (error?: Error | null) => void) => sftp.readFile('/root/secret-link', done)],
      ['realpath through a link out', (done: (error?: Error | null) => void) => sftp.realpath('/root/escape', done)],
      [
        'a write through a link that leads nowhere yet',
        (done: (error?: Error | null) => void) => sftp.writeFile('/root/dangling', 'x', done)
      ],
      ['a write into a folder link out', (done: (error?: Error | null) => void) => sftp.writeFile('/root/escape/planted.txt', 'x', done)],
      ['a rename out', (done: (error?: Error | null) => void) => sftp.rename('/root/work/notes.txt', '/tmp/notes.txt', done)],
      ['a new link to an absolute path outside', (done: (error?: Error | null) => void) => sftp.symlink('/etc', '/root/etc-link', done)]
    ])('refuses %s', async (_what, run) => {
      await expect(call<unknown>(run)).rejects.toMatchObject(denied)
      expect(existsSync(join(outside, 'planted.txt'))).toBe(false)
      expect(existsSync(join(outside, 'not-yet.txt'))).toBe(false)
      expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('the user’s own file')
    })
  }
)
