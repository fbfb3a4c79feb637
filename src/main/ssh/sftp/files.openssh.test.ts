/**
 * The files panel against Debian's OpenSSH (sftp-server through the fixture's subsystem, whose
 * faults are a read-only server and a full tmpfs): the cases are in testing/files-suite.ts.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { filesCommands } from '../../commands/ssh-files'
import { FilesManager } from './files-manager'
import { SftpClient } from './sftp-client'
import { KnownHostsStore } from '../host-keys/known-hosts-store'
import { FilesHarness, groupDriver } from '../testing/files-harness'
import { filesSuite } from '../testing/files-suite'
import { opensshAvailable } from '../testing/openssh-server'
import { useOpenSshServer } from '../testing/use-openssh-server'
import { splitClock } from '../testing/split-clock'
import { sshdLinks } from '../testing/sshd-links'

describe.skipIf(!opensshAvailable())('files (SFTP) against OpenSSH', () => {
  const sshd = useOpenSshServer('cloudtray-files-')
  const cleanups: (() => void)[] = []
  let picked: string | undefined
  sshd.onEnd(async () => {
    for (const cleanup of cleanups) cleanup()
  })

  async function setup() {
    const { clock } = splitClock()
    const knownHosts = new KnownHostsStore(join(sshd.scratch, `known_hosts-${cleanups.length}`), undefined)
    const { keyType, keyBase64 } = sshd.server.hostPublicKey()
    await knownHosts.remember('127.0.0.1', sshd.server.port, { keyType, keyBase64 })
    const harness = new FilesHarness()
    const links = sshdLinks(sshd.server, { clock, knownHosts, homeDir: sshd.scratch, emit: harness.emit })
    const files = new FilesManager({ links, clock, emit: harness.emit })
    // Electron's folder dialog in main, as the test answers it.
    Object.assign(
      harness,
      groupDriver(
        filesCommands(files, async () => picked),
        harness.clientId
      )
    )
    cleanups.push(
      () => files.dispose(),
      () => links.dispose()
    )
    return { harness }
  }

  it('Electron: main writes a download into the folder picked in its dialog, byte-identical; a folder it cannot write says so; Cancel does nothing', async () => {
    const { harness } = await setup()
    const { sessionId, home } = await harness.open('i-1')
    const remote = join(home, `main-picks-${Date.now()}`)
    mkdirSync(join(remote, 'sub dir'), { recursive: true })
    const big = randomBytes(3 * 1024 * 1024 + 17)
    writeFileSync(join(remote, 'sub dir', 'weights.bin'), big)
    writeFileSync(join(remote, 'empty.txt'), '')
    picked = mkdtempSync(join(sshd.scratch, 'picked-'))
    // Already there: a new name, never an overwrite.
    mkdirSync(join(picked, basename(remote)))
    const answer = (await harness.invoke('files.downloadToFolder', { sessionId, paths: [remote] })) as {
      canceled: boolean
      transferId: string
      folder: string
    }
    expect(answer).toMatchObject({ canceled: false, folder: picked })
    harness.send('files.saved', { transferId: answer.transferId, bytes: 0 })
    await vi.waitFor(() => expect(harness.progress.get(answer.transferId)?.at(-1)?.state).toBe('done'), { timeout: 20_000 })
    const landed = join(picked, `${basename(remote)} (2)`)
    expect(readFileSync(join(landed, 'sub dir', 'weights.bin')).equals(big)).toBe(true)
    expect(readFileSync(join(landed, 'empty.txt'), 'utf8')).toBe('')
    expect(readdirSync(join(landed, 'sub dir'))).toEqual(['weights.bin'])

    picked = join(sshd.scratch, 'no-such-folder')
    await expect(harness.invoke('files.downloadToFolder', { sessionId, paths: [remote] })).rejects.toThrow(
      /cannot write into .*no-such-folder/
    )
    picked = undefined
    expect(await harness.invoke('files.downloadToFolder', { sessionId, paths: [remote] })).toEqual({ canceled: true })
  })

  it('a folder download asks the server about each entry once, in its listing, not once more per file (a round trip each on a far link)', async () => {
    const { harness } = await setup()
    const { sessionId, home } = await harness.open('i-1')
    const remote = join(home, `many-${Date.now()}`)
    mkdirSync(join(remote, 'inner'), { recursive: true })
    const contents = Array.from({ length: 20 }, (_, index) => randomBytes(1000 + index))
    contents.forEach((data, index) => writeFileSync(join(remote, index % 2 ? 'inner' : '.', `f${index}.bin`), data))
    const lstat = vi.spyOn(SftpClient.prototype, 'lstat')
    const local = mkdtempSync(join(sshd.scratch, 'many-'))
    try {
      expect((await harness.download(sessionId, [remote], local)).state).toBe('done')
      // The chosen folder itself, nothing under it.
      expect(lstat.mock.calls.map(([path]) => path)).toEqual([remote])
    } finally {
      lstat.mockRestore()
    }
    contents.forEach((data, index) =>
      expect(readFileSync(join(local, basename(remote), index % 2 ? 'inner' : '.', `f${index}.bin`)).equals(data)).toBe(true)
    )
  })

  it('an upload of many files asks about their folder once, not once per file', async () => {
    const { harness } = await setup()
    const { sessionId, home } = await harness.open('i-1')
    const local = mkdtempSync(join(sshd.scratch, 'many-up-'))
    const name = `many-up-${Date.now()}`
    mkdirSync(join(local, name, 'inner'), { recursive: true })
    const contents = Array.from({ length: 20 }, (_, index) => randomBytes(1000 + index))
    contents.forEach((data, index) => writeFileSync(join(local, name, 'inner', `f${index}.bin`), data))
    const lstat = vi.spyOn(SftpClient.prototype, 'lstat')
    try {
      expect((await harness.upload(sessionId, home, local, [name])).state).toBe('done')
      const asked = lstat.mock.calls.map(([path]) => path)
      // Each file's own name (is it there already?) and each folder once.
      expect(asked.filter((path) => path === join(home, name, 'inner'))).toHaveLength(1)
      expect(asked).toHaveLength(contents.length + 3)
    } finally {
      lstat.mockRestore()
    }
    contents.forEach((data, index) => expect(readFileSync(join(home, name, 'inner', `f${index}.bin`)).equals(data)).toBe(true))
  })

  filesSuite(async () => ({
    ...(await setup()),
    instanceId: 'i-1',
    scratch: sshd.scratch,
    home: sshd.server.homePath,
    setFault: (fault) => sshd.server.setSftpFault(fault)
  }))
})
