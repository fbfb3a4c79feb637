/**
 * Test helpers for the core: a recording Platform, an event log, and a core wired to an
 * emulator on loopback. Used by the core's integration tests and the token containment test.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ManualClock } from '../../shared/clock'
import type { AppNotification, CommandName, CommandResult, EventName, Events, Result, TrayModel } from '../../shared/contract'
import type { CreateInstanceRequest } from '../../shared/create-request'
import { validCreateRequest } from '../../shared/testing/create-request'
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/index'
import { createAppCore, type AppCoreOptions } from '../core'
import type { AppCore, Keychain, NotebookWindowRequest, Platform } from '../core-types'
import { createMemoryKeychain } from '../account/keychain'

export interface RecordingPlatform extends Platform {
  notifications: AppNotification[]
  trays: TrayModel[]
  notebooks: NotebookWindowRequest[]
  external: string[]
  clipboard: string[]
  shown: number
  quits: number
  startAtLogin: boolean[]
  /** What keepAwake was told, in order (true: hold the computer awake). */
  awake: boolean[]
}

export function recordingPlatform(): RecordingPlatform {
  const p: RecordingPlatform = {
    notifications: [],
    trays: [],
    notebooks: [],
    external: [],
    clipboard: [],
    shown: 0,
    quits: 0,
    startAtLogin: [],
    awake: [],
    showNotification: (n) => void p.notifications.push(n),
    setTray: (m) => void p.trays.push(m),
    openNotebook: async (r) => void p.notebooks.push(r),
    refreshNotebookCookies: async () => undefined,
    openExternal: async (u) => void p.external.push(u),
    openEditor: async (u) => void p.external.push(u),
    setStartAtLogin: (e) => void p.startAtLogin.push(e),
    showWindow: () => void p.shown++,
    quit: () => void p.quits++,
    writeClipboard: (t) => void p.clipboard.push(t),
    keepAwake: (hold) => void p.awake.push(hold)
  }
  return p
}

export interface LoggedEvent {
  event: EventName
  payload: unknown
}

export interface CoreRig {
  core: AppCore
  emulator: Emulator
  clock: ManualClock
  platform: RecordingPlatform
  keychain: Keychain
  dataDir: string
  events: LoggedEvent[]
  of<E extends EventName>(event: E): Events[E][]
  call<C extends CommandName>(command: C, input?: unknown): Promise<Result<CommandResult<C>>>
  login(rememberMe?: boolean): Promise<void>
  /** A core on the same data dir and keychain, as after an app restart. */
  restart(): Promise<void>
  close(): Promise<void>
}

export async function createCoreRig(
  options: { emulator?: EmulatorOptions; keychain?: Keychain; core?: Partial<AppCoreOptions> } = {}
): Promise<CoreRig> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-core-'))
  const clock = new ManualClock(Date.now())
  const emulator = await startEmulator({ port: 0, bootMs: 4000, ...options.emulator })
  const platform = recordingPlatform()
  const keychain = options.keychain ?? createMemoryKeychain()
  const events: LoggedEvent[] = []
  const build = (): AppCore => {
    const core = createAppCore({
      dataDir,
      platform,
      keychain,
      clock,
      version: '0.0.0-test',
      baseUrlOverride: emulator.baseUrl,
      random: () => 0.5,
      ...options.core
    })
    core.subscribe((event, payload) => events.push({ event, payload }))
    return core
  }
  const rig: CoreRig = {
    core: build(),
    emulator,
    clock,
    platform,
    keychain,
    dataDir,
    events,
    of: <E extends EventName>(event: E) => events.filter((e) => e.event === event).map((e) => e.payload as Events[E]),
    call: (command, input) => rig.core.handle(command, input, { clientId: 'test' }),
    async login(rememberMe = false) {
      // The core's own Sandbox (no baseUrlOverride) has a per-install password; the rig's emulator has demo / demo.
      const profiles = await rig.call('profiles.get')
      const password = (profiles.ok && profiles.value.demoPassword) || 'demo'
      const result = await rig.call('session.login', { profileId: 'sandbox', username: 'demo', password, rememberMe })
      if (!result.ok) throw new Error(`login failed: ${result.error.message}`)
    },
    async restart() {
      await rig.core.stop()
      rig.core = build()
      await rig.core.start()
    },
    async close() {
      await rig.core.stop()
      await emulator.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  }
  await rig.core.start()
  return rig
}

/** A create request for the first image, type and region of the emulator's catalogue. */
export function createRequest(emulator: Emulator, name: string, overrides: Partial<CreateInstanceRequest> = {}): CreateInstanceRequest {
  const catalog = emulator.control.catalog()
  return validCreateRequest({
    name,
    imageId: catalog.images[0]!.imageId,
    instanceTypeId: catalog.instanceTypes[0]!.instanceTypeId,
    region: catalog.regions[0]!.regionId,
    ...overrides
  })
}
