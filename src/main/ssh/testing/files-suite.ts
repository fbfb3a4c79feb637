/**
 * The files panel's behaviour, the same against every SSH server the tests run (Debian's sshd and
 * the emulator's own): a tree with odd names goes up and comes back byte-identical with no name
 * ever reaching a shell; a cancelled upload leaves nothing under its final name nor its temporary
 * file; a full disk and a read-only server give messages that say so; folder operations work and
 * refuse what would overwrite. Both servers' homes are folders on this machine, so the test reads
 * what arrived straight from the disk.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'
import type { SftpFault } from '../../../emulator/reach-types'
import type { FilesHarness } from './files-harness'
import { INJECTION_MARKER, makeOddTree, renamedTree, treeOf } from './odd-tree'

const MiB = 1024 * 1024

export interface FilesRig {
  harness: FilesHarness
  instanceId: string
  /** A folder on this machine for the local side. */
  scratch: string
  /** Where the server's SFTP session starts (the user's home), as the server shows it. */
  home: string
  /** Where that home is on this machine, when the server shows it by another name (the Sandbox: `/root`). */
  homeOnDisk?: string
  /** The server's SFTP from its next session on (sftp-server.ts). */
  setFault(fault: SftpFault): Promise<void> | void
}

/** A tree as a download writes it: each name as local-names.ts allows it here. */
export function filesSuite(setup: () => Promise<FilesRig>): void {
  let counter = 0
  /** A path the server names, on this machine's disk (the test reads what the server wrote). */
  const onDisk = (rig: FilesRig, path: string): string =>
    rig.homeOnDisk === undefined ? path : join(rig.homeOnDisk, relative(rig.home, path))
  const localFolder = (scratch: string): string => {
    const folder = join(scratch, `local-${++counter}`)
    mkdirSync(folder, { recursive: true })
    return folder
  }

  /** Opens a files session with `fault` in force, and a local folder; the fault is lifted afterwards, pass or fail. */
  async function underFault(
    fault: SftpFault,
    test: (opened: { harness: FilesHarness; sessionId: string; home: string; local: string }) => Promise<void>
  ): Promise<void> {
    const { harness, instanceId, scratch, setFault } = await setup()
    await setFault(fault)
    try {
      const { sessionId, home } = await harness.open(instanceId)
      await test({ harness, sessionId, home, local: localFolder(scratch) })
    } finally {
      await setFault('none')
    }
  }

  it('uploads and downloads a tree with odd names byte-identical, names never reaching a shell', async () => {
    const rig = await setup()
    const { harness, instanceId, scratch, home: expectedHome } = rig
    const { sessionId, home } = await harness.open(instanceId)
    expect(home).toBe(expectedHome)
    const local = localFolder(scratch)
    const root = makeOddTree(local)
    const remote = join(home, 'uploads')

    const up = await harness.upload(sessionId, remote, local, [root])
    expect(up).toMatchObject({ state: 'done', bytesDone: up.bytesTotal, itemsDone: up.itemsTotal })
    expect(treeOf(onDisk(rig, join(remote, root)))).toEqual(treeOf(join(local, root)))
    expect(readdirSync(onDisk(rig, join(remote, root))).filter((name) => name.includes('.cloudtray-'))).toEqual([])

    const back = localFolder(scratch)
    const down = await harness.download(sessionId, [join(remote, root)], back)
    expect(down).toMatchObject({ state: 'done', bytesDone: down.bytesTotal })
    // Byte-identical, with the names a download may not write here renamed (local-names.ts: a
    // newline, a tab, a backslash become `_`), and the summary saying so.
    expect(treeOf(join(back, root))).toEqual(renamedTree(treeOf(join(local, root))))
    expect(down.message).toMatch(/6 names were changed to be safe on your computer \(“/)

    // `$(touch …)` in a name stayed a name: no marker anywhere the shell would have made it.
    for (const folder of [home, remote, join(remote, root)]) expect(existsSync(join(onDisk(rig, folder), INJECTION_MARKER))).toBe(false)
    expect(existsSync(join(process.cwd(), INJECTION_MARKER))).toBe(false)

    const listing = (await harness.invoke('files.list', { sessionId, path: join(remote, root) })) as {
      entries: { name: string; type: string }[]
    }
    expect(listing.entries.find((entry) => entry.name === 'new\nline.txt')).toMatchObject({ type: 'file' })
    expect(listing.entries.find((entry) => entry.name === 'sub dir')).toMatchObject({ type: 'folder' })
  })

  it('leaves nothing under the final name, nor the temporary file, when an upload is cancelled', async () => {
    const rig = await setup()
    const { harness, instanceId, scratch } = rig
    const { sessionId, home } = await harness.open(instanceId)
    const local = localFolder(scratch)
    makeOddTree(local, 'big', 64 * MiB)
    const remote = join(home, 'cancelled')
    const outcome = await harness.upload(sessionId, remote, join(local, 'big', 'sub dir', 'deeper'), ['big.bin'], {
      onSent: async (transferId, sent) => {
        if (sent === 16 * MiB) await harness.invoke('files.cancel', { transferId })
      }
    })
    expect(outcome).toMatchObject({ state: 'cancelled' })
    expect(outcome.bytesDone).toBeLessThan(64 * MiB)
    // "Cancelled" is reported once the temporary file is gone.
    expect(readdirSync(onDisk(rig, remote))).toEqual([])
  })

  it('says the disk is full when it is, and leaves nothing behind', async () => {
    await underFault('disk-full', async ({ harness, sessionId, home, local }) => {
      makeOddTree(local, 'full', 1 * MiB)
      const outcome = await harness.upload(sessionId, home, join(local, 'full', 'sub dir', 'deeper'), ['big.bin'])
      expect(outcome.state).toBe('failed')
      expect(outcome.message).toMatch(
        /^The instance's disk is full: .* left where “.*big\.bin” was going\. Free some space on the instance/
      )
      const listing = (await harness.invoke('files.list', { sessionId, path: home })) as { entries: unknown[] }
      expect(listing.entries).toEqual([])
    })
  })

  it('says when the user may not write there (permission denied)', async () => {
    await underFault('read-only', async ({ harness, sessionId, home, local }) => {
      const root = makeOddTree(local, 'denied', 1024)
      const outcome = await harness.upload(sessionId, home, join(local, root), ['plain.txt'])
      expect(outcome).toMatchObject({
        state: 'failed',
        message: `You may not write in “${home}” on the instance (permission denied). Choose a folder you own, such as your home folder.`
      })
      await expect(harness.invoke('files.mkdir', { sessionId, path: join(home, 'new') })).rejects.toMatchObject({
        message: expect.stringMatching(/^You may not create “.*new” on the instance \(permission denied\)/)
      })
    })
  })

  it('makes, renames and deletes folders, refusing to overwrite', async () => {
    const rig = await setup()
    const { harness, instanceId, scratch } = rig
    const { sessionId, home } = await harness.open(instanceId)
    const folder = join(home, 'ops')
    await harness.invoke('files.mkdir', { sessionId, path: folder })
    await expect(harness.invoke('files.mkdir', { sessionId, path: folder })).rejects.toMatchObject({ field: 'name' })
    await harness.invoke('files.mkdir', { sessionId, path: join(folder, 'a b') })
    await harness.invoke('files.mkdir', { sessionId, path: join(folder, 'c') })
    await expect(harness.invoke('files.rename', { sessionId, from: join(folder, 'a b'), to: join(folder, 'c') })).rejects.toMatchObject({
      field: 'name'
    })
    await harness.invoke('files.rename', { sessionId, from: join(folder, 'a b'), to: join(folder, 'd "e"') })
    expect(readdirSync(onDisk(rig, folder)).sort()).toEqual(['c', 'd "e"'])
    const local = localFolder(scratch)
    makeOddTree(local, 'tree', 1024)
    await harness.upload(sessionId, join(folder, 'c'), local, ['tree'])
    await harness.invoke('files.delete', { sessionId, paths: [join(folder, 'c'), join(folder, 'd "e"')] })
    expect(readdirSync(onDisk(rig, folder))).toEqual([])
    await expect(harness.invoke('files.delete', { sessionId, paths: ['/'] })).rejects.toMatchObject({
      message: expect.stringMatching(/whole disk/)
    })
    await expect(harness.invoke('files.list', { sessionId, path: 'relative/path' })).rejects.toMatchObject({ kind: 'bad-input' })
  })
}
