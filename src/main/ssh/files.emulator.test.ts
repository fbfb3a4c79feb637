/**
 * The files panel through the whole core against the emulator's own SSH server (the Sandbox
 * with reach; its SFTP faults are the emulator's control): the cases are in
 * testing/files-suite.ts. The window answers the host-key question the first session asks.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe } from 'vitest'
import type { EventName, Events } from '../../shared/contract'
import type { SshPrompt } from '../../shared/contract-ssh'
import { startEmulator, type Emulator } from '../../emulator/index'
import { createReach } from '../../emulator/reach/index'
import { REACH_FOLDER, safeFolderName } from '../../emulator/reach/create-reach'
import { createMemoryKeychain } from '../account/keychain'
import { createAppCore } from '../core'
import type { AppCore, ClientId } from '../core-types'
import { recordingPlatform } from '../test-support/core-harness'
import { FilesHarness } from './testing/files-harness'
import { filesSuite } from './testing/files-suite'

describe('files (SFTP) against the emulator’s SSH server, through the core', () => {
  let core: AppCore
  let emulator: Emulator | undefined
  let dataDir: string
  let instanceId: string
  const harnesses: FilesHarness[] = []

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cloudtray-files-emu-'))
    core = createAppCore({
      dataDir,
      platform: recordingPlatform('web'),
      keychain: createMemoryKeychain(),
      version: '0.0.0-test',
      reach: createReach(),
      startEmulator: async (sandbox) => {
        emulator = await startEmulator({ bootMs: 300, stopMs: 100, ...sandbox })
        return emulator
      }
    })
    core.subscribe(<E extends EventName>(event: E, payload: Events[E], target?: ClientId) => {
      for (const harness of harnesses) harness.emit(event, payload, target)
      if (event === 'ssh.prompt' && (payload as SshPrompt).kind === 'host-key') {
        void core.handle('ssh.answer', { promptId: (payload as SshPrompt).promptId, answer: { kind: 'host-key', decision: 'accept-and-remember' } }, { clientId: target ?? '' })
      }
    })
    await core.start()
    const profiles = await core.handle('profiles.get', undefined, { clientId: 'w' })
    const password = (profiles.ok && profiles.value.demoPassword) || ''
    await core.handle('session.login', { profileId: 'sandbox', username: 'demo', password, rememberMe: false }, { clientId: 'w' })
    ;[instanceId] = (await emulator!.control.seedInstances('demo', 1, { name: 'files-box' })) as [string]
    await core.handle('instances.refresh', undefined, { clientId: 'w' })
  })

  afterAll(async () => {
    await core?.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  filesSuite(async () => {
    const harness = new FilesHarness()
    harnesses.push(harness)
    harness.invoke = async (command, input) => {
      const result = await core.handle(command as never, input, { clientId: harness.clientId })
      if (!result.ok) throw Object.assign(new Error(result.error.message), result.error)
      return result.value
    }
    return {
      harness,
      instanceId,
      scratch: dataDir,
      // The Sandbox keeps its state (and so the instance homes) in the data folder.
      home: join(dataDir, 'sandbox', REACH_FOLDER, 'homes', safeFolderName(instanceId)),
      setFault: (fault) => emulator!.control.faults.sftp(instanceId, fault)
    }
  })
})
