/**
 * The files panel through the whole core against the emulator's own SSH server (the Sandbox
 * with reach; its SFTP faults are the emulator's control): the cases are in
 * testing/files-suite.ts. The window answers the host-key question the first session asks.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe } from 'vitest'
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

    filesSuite(async () => {
      const harness = new FilesHarness()
      harnesses.push(harness)
      harness.invoke = (command, input) => sandbox.call(command as never, input, harness.clientId)
      harness.send = (notice, input) => sandbox.core.notice(notice as never, input, { clientId: harness.clientId })
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
  }
)
