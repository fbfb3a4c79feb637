/**
 * A core on the Sandbox with reach (real SSH servers, notebook pages, forwarders), signed in as
 * demo with a Running instance: what the SSH integration tests through `core.handle` share.
 * Events are recorded (and handed to `onEvent`); `call` throws a command's error with its fields.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CommandName, CommandResult, EventName, Events } from '../../shared/contract'
import { startEmulator, type Emulator } from '../../emulator/index'
import { createReach, type ReachOptions } from '../../emulator/reach/index'
import type { Clock } from '../../shared/clock'
import { createMemoryKeychain } from '../account/keychain'
import { createAppCore } from '../core'
import type { AppCore, ClientId } from '../core-types'
import { recordingPlatform, type RecordingPlatform } from './core-harness'

export interface SentEvent {
  event: EventName
  payload: unknown
  target: ClientId | undefined
}

export interface SandboxCore {
  core: AppCore
  emulator: Emulator
  platform: RecordingPlatform
  dataDir: string
  /** The Running instance seeded at start (empty when none was asked for). */
  instanceId: string
  sent: SentEvent[]
  call<C extends CommandName>(command: C, input?: unknown, clientId?: ClientId): Promise<CommandResult<C>>
  signIn(): Promise<void>
  close(): Promise<void>
}

export async function startSandboxCore(options: {
  /** Seeds one Running instance of this name; none when absent. */
  instanceName?: string
  onEvent?: (event: EventName, payload: unknown, target: ClientId | undefined) => void
  /**
   * The data folder of a core that ran before (a restart: the same Sandbox state, known hosts,
   * saved tabs and jobs); it is kept on close. Absent: a fresh one, removed on close.
   */
  dataDir?: string
  /** The core's clock (the cost guard's countdowns, the jobs' retries); default the system's. */
  /** The reach's options (`sshBackend`: every instance's SSH port leads to that server). */
  reach?: ReachOptions
  /** The core's clock (the cost guard's countdowns, the jobs' retries; the emulator keeps real time). */
  clock?: Clock
}): Promise<SandboxCore> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'cloudtray-sandbox-core-')))
  const platform = recordingPlatform()
  let emulator: Emulator | undefined
  const core = createAppCore({
    dataDir,
    platform,
    keychain: createMemoryKeychain(),
    version: '0.0.0-test',
    reach: createReach(options.reach),
    ...(options.clock ? { clock: options.clock } : {}),
    startEmulator: async (sandbox) => {
      emulator = await startEmulator({ bootMs: 300, stopMs: 100, ...sandbox })
      return emulator
    }
  })
  const sent: SentEvent[] = []
  core.subscribe(<E extends EventName>(event: E, payload: Events[E], target?: ClientId) => {
    sent.push({ event, payload, target })
    options.onEvent?.(event, payload, target)
  })
  await core.start()
  const call = async <C extends CommandName>(command: C, input?: unknown, clientId: ClientId = 'window-1'): Promise<CommandResult<C>> => {
    const result = await core.handle(command, input, { clientId })
    if (!result.ok) throw Object.assign(new Error(result.error.message), result.error)
    return result.value
  }
  const signIn = async (): Promise<void> => {
    const profiles = await call('profiles.get')
    await call('session.login', { profileId: 'sandbox', username: 'demo', password: profiles.demoPassword ?? '', rememberMe: false })
  }
  await signIn()
  let instanceId = ''
  if (options.instanceName !== undefined) {
    ;[instanceId] = (await emulator!.control.seedInstances('demo', 1, { name: options.instanceName })) as [string]
    const snapshot = await call('instances.refresh')
    if (!snapshot.instances.some((i) => i.instanceMetadata.instanceId === instanceId && i.instanceRuntimeInfo.status === 'Running')) {
      throw new Error('the seeded instance is not Running in the list')
    }
  }
  return {
    core,
    emulator: emulator!,
    platform,
    dataDir,
    instanceId,
    sent,
    call,
    signIn,
    async close() {
      // A data folder of its own goes: the instances' tmux sessions (which outlive the Sandbox) too.
      if (options.dataDir === undefined) await emulator?.control.endSessions().catch(() => undefined)
      await core.stop()
      if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true })
    }
  }
}
