/**
 * The files panel through the whole core against the emulator's own SSH server (the Sandbox
 * with reach; its SFTP faults are the emulator's control): the cases are in
 * testing/files-suite.ts. The window answers the host-key question the first session asks.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES_CHUNK } from '../../../shared/contract-files'
import type { SshPrompt } from '../../../shared/contract-ssh'
import { REACH_FOLDER, safeFolderName } from '../../../emulator/reach/create-reach'
import { sftpServerPath } from '../../../emulator/reach/sftp-server'
import { skipBecause } from '../../../shared/node/testing/platform-support'
import { startSandboxCore, type SandboxCore } from '../../testing/sandbox-core'
import { FilesHarness } from '../testing/files-harness'
import { filesSuite } from '../testing/files-suite'

// The emulator's SFTP subsystem is OpenSSH's own sftp-server (emulator/reach/sftp-server.ts).
const noSftpServer = sftpServerPath() ? undefined : 'OpenSSH’s sftp-server is not installed (Debian: openssh-sftp-server)'

describe.skipIf(skipBecause(noSftpServer, 'the files tests against the emulator'))(
  'files (SFTP) against the emulator’s SSH server, through the core',
  () => {
    let sandbox: SandboxCore
    const harnesses: FilesHarness[] = []

    beforeAll(async () => {
      sandbox = await startSandboxCore({
        instanceName: 'files-box',
        onEvent: (event, payload, target) => {
          for (const harness of harnesses) harness.emit(event, payload as never, target)
          if (event === 'ssh.prompt' && (payload as SshPrompt).kind === 'host-key') {
            const answer = { kind: 'host-key', decision: 'accept-and-remember' }
            void sandbox.core.handle('ssh.answer', { promptId: (payload as SshPrompt).promptId, answer }, { clientId: target ?? '' })
          }
        }
      })
    })

    afterAll(() => sandbox?.close())

    /** The window's side of the files panel, through the whole core. */
    const newHarness = (): FilesHarness => {
      const harness = new FilesHarness()
      harnesses.push(harness)
      harness.invoke = (command, input) => sandbox.call(command as never, input, harness.clientId)
      harness.send = (notice, input) => sandbox.core.notice(notice as never, input, { clientId: harness.clientId })
      return harness
    }

    filesSuite(async () => {
      const harness = newHarness()
      return {
        harness,
        instanceId: sandbox.instanceId,
        scratch: sandbox.dataDir,
        // Shown as a real instance's home (#24); the Sandbox keeps it in its data folder.
        home: '/root',
        homeOnDisk: join(sandbox.dataDir, 'sandbox', REACH_FOLDER, 'homes', safeFolderName(sandbox.instanceId)),
        setFault: (fault) => sandbox.emulator.control.faults.sftp(sandbox.instanceId, fault)
      }
    })

    it('keeps the computer awake while an upload or a download runs, and lets it sleep once the last ends or its panel closes', async () => {
      const harness = newHarness()
      const { sessionId, home } = await harness.open(sandbox.instanceId)
      const local = join(sandbox.dataDir, 'awake')
      mkdirSync(local, { recursive: true })
      writeFileSync(join(local, 'weights.bin'), Buffer.alloc(3 * 1024 * 1024, 7))
      const awake = sandbox.platform.awake
      awake.length = 0

      const heldWhileSending: boolean[] = []
      const up = await harness.upload(sessionId, join(home, 'awake'), local, ['weights.bin'], {
        onSent: () => void heldWhileSending.push(awake.at(-1) === true)
      })
      expect(up).toMatchObject({ state: 'done' })
      expect(heldWhileSending.length).toBeGreaterThan(0)
      expect(heldWhileSending.every(Boolean)).toBe(true)
      expect(awake).toEqual([true, false])

      const back = join(local, 'back')
      mkdirSync(back)
      let heldAtStart: boolean | undefined
      const down = await harness.download(sessionId, [join(home, 'awake', 'weights.bin')], back, () => (heldAtStart = awake.at(-1)))
      expect(down).toMatchObject({ state: 'done' })
      expect(heldAtStart).toBe(true)
      expect(awake).toEqual([true, false, true, false])

      // The panel closes in the middle of an upload: the transfer goes with it, and so does the hold.
      const closed = await harness.upload(sessionId, join(home, 'awake', 'closed'), local, ['weights.bin'], {
        onSent: async (_transferId, sent) => {
          if (sent === FILES_CHUNK) await harness.invoke('files.close', { sessionId })
        }
      })
      expect(closed.state).toBe('cancelled')
      expect(awake).toEqual([true, false, true, false, true, false])
    })
  }
)
