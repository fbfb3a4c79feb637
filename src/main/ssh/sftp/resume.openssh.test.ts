/**
 * A transfer cut mid-way by a dropped connection resumes once the link is back, byte-identical:
 * Debian's sshd behind the delaying proxy (testing/delay-proxy.ts, 20 ms of round trip, so a
 * large file also moves over several channels: lanes.ts), whose `cut()` ends every connection
 * through it at once (sshd's processes for it end too; the files they wrote stay). The link's
 * reconnect waits out its backoff on the test's clock.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EventName, Events } from '../../../shared/contract'
import { FILES_WINDOW, type TransferProgress } from '../../../shared/contract-files'
import { filesCommands } from '../../commands/ssh-files'
import type { ClientId } from '../../core-types'
import { KnownHostsStore } from '../host-keys/known-hosts-store'
import { startDelayProxy, type DelayProxy } from '../testing/delay-proxy'
import { FilesHarness, groupDriver } from '../testing/files-harness'
import { opensshAvailable } from '../testing/openssh-server'
import { splitClock } from '../testing/split-clock'
import { sshdInstance, sshdLinks } from '../testing/sshd-links'
import { useOpenSshServer } from '../testing/use-openssh-server'
import { FilesManager, RESUME_WITHIN_MS } from './files-manager'

const MiB = 1024 * 1024
const SIZE = 24 * MiB + 4321
/** Where the link is cut: a third of the way (an upload's sender runs FILES_WINDOW ahead of the bytes written). */
const CUT_AT = 8 * MiB

describe.skipIf(!opensshAvailable())('SFTP transfers resume after a dropped connection (OpenSSH)', () => {
  const sshd = useOpenSshServer('cloudtray-resume-')
  const endings: (() => unknown)[] = []
  sshd.onEnd(async () => {
    for (const end of endings.splice(0)) await end()
  })

  /** A files module whose instance is the sshd behind a proxy; `onEvent` sees each event first. */
  async function setup(onEvent: (event: EventName, payload: unknown) => void = () => {}) {
    const proxy: DelayProxy = await startDelayProxy(sshd.server.port, 10)
    const { clock, manual } = splitClock()
    const knownHosts = new KnownHostsStore(join(sshd.scratch, `known_hosts-${endings.length}`), undefined)
    await knownHosts.remember('127.0.0.1', proxy.port, sshd.server.hostPublicKey())
    const harness = new FilesHarness()
    const emit = <E extends EventName>(event: E, payload: Events[E], target?: ClientId): void => {
      onEvent(event, payload)
      harness.emit(event, payload, target)
    }
    const links = sshdLinks(sshd.server, {
      clock,
      knownHosts,
      homeDir: sshd.scratch,
      emit,
      instance: () => sshdInstance(sshd.server, 'i-1', proxy.port)
    })
    const files = new FilesManager({ links, clock, emit })
    Object.assign(harness, groupDriver(filesCommands(files), harness.clientId))
    endings.push(
      () => files.dispose(),
      () => links.dispose(),
      () => proxy.close()
    )
    const local = join(sshd.scratch, `local-${endings.length}`)
    mkdirSync(local)
    const { sessionId, home } = await harness.open('i-1')
    let statusesAtCut: number | undefined
    /** Cuts the link once (`act`: the proxy's cut unless told), remembering where the statuses were. */
    const cutOnce = async (act: () => unknown = () => proxy.cut()): Promise<void> => {
      if (statusesAtCut !== undefined) return
      statusesAtCut = harness.statuses.length
      await act()
    }
    /** Resolves once the link says it is reconnecting after the cut. */
    const reconnecting = (): Promise<void> =>
      harness.waitFor(
        () =>
          statusesAtCut !== undefined &&
          harness.statuses.slice(statusesAtCut).some((status) => status.sessionId === sessionId && status.state === 'reconnecting'),
        'the link to reconnect'
      )
    /** Uploads `name` from the local folder, the link cut (by `act`) a third of the way. */
    let uploading: string | undefined
    const uploadCut = (name: string, act?: () => unknown) =>
      harness.upload(sessionId, home, local, [name], {
        onSent: async (transferId, sent) => {
          uploading = transferId
          if (sent >= CUT_AT + FILES_WINDOW) await cutOnce(act)
        }
      })
    /** The transfer was cut, the link's backoff (1 s on the test's clock) passes, and it ends done. */
    const resumesToTheEnd = async (outcome: Promise<TransferProgress>): Promise<void> => {
      await reconnecting()
      manual.advance(1_000)
      const result = await outcome
      expect(result.message).not.toMatch(/lost/)
      expect(result.state).toBe('done')
      expect(statusesAtCut).not.toBeUndefined()
    }
    return {
      proxy,
      harness,
      sessionId,
      home,
      local,
      manual,
      cutOnce,
      reconnecting,
      uploadCut,
      resumesToTheEnd,
      uploadingId: () => uploading
    }
  }

  it('an upload cut a third of the way continues on the next connection and arrives byte-identical, no part file left', async () => {
    const { home, local, uploadCut, resumesToTheEnd } = await setup()
    const payload = randomBytes(SIZE)
    writeFileSync(join(local, 'dataset.bin'), payload)
    await resumesToTheEnd(uploadCut('dataset.bin'))
    expect(readFileSync(join(home, 'dataset.bin')).equals(payload)).toBe(true)
    expect(readdirSync(home).filter((name) => name.includes('dataset'))).toEqual(['dataset.bin'])
  })

  it('a download cut a third of the way continues from the bytes already saved and arrives byte-identical', async () => {
    let received = 0
    let cut = (): void => {}
    const rig = await setup((event, payload) => {
      if (event !== 'files.data') return
      received += (payload as Events['files.data']).data.length
      if (received >= CUT_AT) cut()
    })
    cut = () => void rig.cutOnce()
    const { harness, sessionId, home, local, resumesToTheEnd } = rig
    const payload = randomBytes(SIZE)
    writeFileSync(join(home, 'weights.bin'), payload)
    await resumesToTheEnd(harness.download(sessionId, [join(home, 'weights.bin')], local))
    expect(readFileSync(join(local, 'weights.bin')).equals(payload)).toBe(true)
  })

  it('an upload whose link does not come back within two minutes fails in words, and then nothing is left under its name', async () => {
    const { proxy, home, local, manual, reconnecting, uploadCut } = await setup()
    writeFileSync(join(local, 'stranded.bin'), randomBytes(SIZE))
    // The instance's address stops answering altogether.
    const outcome = uploadCut('stranded.bin', () => proxy.close())
    await reconnecting()
    await manual.advanceAsync(RESUME_WITHIN_MS)
    const result = await outcome
    expect(result.state).toBe('failed')
    expect(result.message).toMatch(/connection to the instance was lost during the transfer.*try again once it has reconnected/)
    expect(readdirSync(home)).not.toContain('stranded.bin')
  })

  it('an upload cancelled while it waits for the link says Cancelled at once, and nothing is under its name', async () => {
    const { proxy, harness, home, local, reconnecting, uploadCut, uploadingId } = await setup()
    writeFileSync(join(local, 'given-up.bin'), randomBytes(SIZE))
    const outcome = uploadCut('given-up.bin', () => proxy.close())
    await reconnecting()
    await harness.invoke('files.cancel', { transferId: uploadingId() })
    const result = await outcome
    expect(result.state).toBe('cancelled')
    expect(readdirSync(home)).not.toContain('given-up.bin')
  })
})
