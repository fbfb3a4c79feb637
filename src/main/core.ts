/**
 * The app's engine, in plain Node: builds every capability (settings, profiles, session,
 * Sandbox, watcher, notifications, tray) and answers the contract through command groups
 * (src/main/commands). Both shells use it: Electron through ipc.ts, `npm run web` through the
 * WebSocket transport. It never imports electron; what only Electron can do is the Platform.
 */
import type { CreateInstanceRequest } from '../shared/api'
import { systemClock } from '../shared/clock'
import type {
  AppNotification,
  CommandName,
  CommandResult,
  EventName,
  Events,
  InstancesSnapshot,
  LoginInput,
  NotificationKind,
  Profile,
  RecordedEffect,
  SessionState,
  TrayModel,
  Warning,
  WatchHealth
} from '../shared/contract'
import { fail, ok, type ErrorInfo, type Result } from '../shared/errors'
import { AppError } from './app-error'
import type { CloudClient, CloudClientOptions } from './cloud/types'
import { isCloudError } from './cloud/errors'
import type {
  AppCore,
  AppCoreOptions,
  ClientContext,
  ClientId,
  CommandGroup,
  CommandHandlers,
  CoreServices,
  EventSink,
  SandboxInfo
} from './core-types'
import type { CoreInternals } from './core-internals'
import { COMMAND_GROUPS } from './commands/index'
import { INPUT_SCHEMAS, describeInputError } from './commands/input-schemas'
import { SettingsStore } from './settings/settings-store'
import {
  ProfilesStore,
  SANDBOX_PROFILE_ID,
  allProfiles,
  profilesState,
  removeProfile,
  saveProfile,
  selectProfile
} from './account/profiles'
import { Session } from './account/session'
import { ReloginGate } from './account/relogin-gate'
import { startSandbox, type RunningSandbox, type StartEmulator } from './account/sandbox'
import { Watcher } from './watch/watcher'
import { expiringNotification, notificationsFor } from './notify/policy'
import { trayModel, type TrayContext } from './tray/tray-model'
import { suggestionsFrom } from './catalog/suggestions'
import { RecentLaunchesStore } from './catalog/recent-launches-store'
import { recordingEffects } from './platform-recording'

/** Commands whose group is written elsewhere and may not be in COMMAND_GROUPS yet. */
const NOT_YET_MESSAGE = 'This part of Cloud Tray is not available in this build yet.'

export function createAppCore(options: AppCoreOptions): AppCore {
  const clock = options.clock ?? systemClock()
  const log = options.log
  const random = options.random ?? Math.random
  const sinks = new Set<EventSink>()
  const emit: EventSink = (event, payload, target) => {
    for (const sink of sinks) {
      try {
        sink(event, payload, target)
      } catch {
        // One broken transport must not stop the others from hearing about it.
      }
    }
  }

  const warnings: Warning[] = []
  const warn = (id: string, message: string): void => {
    log?.warn(`warning ${id}: ${message}`)
    const existing = warnings.findIndex((w) => w.id === id)
    const warning = { id, message }
    if (existing >= 0) warnings[existing] = warning
    else warnings.push(warning)
    emit('warning', warning)
  }

  const recorded: RecordedEffect[] = []
  const platform = recordingEffects(options.platform, () => clock.now(), (effect) => {
    recorded.push(effect)
    if (recorded.length > 200) recorded.shift()
    emit('recorded', effect)
  })

  const settingsStore = new SettingsStore(options.dataDir, clock)
  const profiles = new ProfilesStore(options.dataDir)
  const sessionListeners = new Set<(state: SessionState) => void>()
  const snapshotListeners = new Set<(snapshot: InstancesSnapshot) => void>()
  /** What command groups add to the tray; set once the groups exist. */
  let groupTrayContext: () => Partial<TrayContext> = () => ({})

  let sandbox: RunningSandbox | undefined
  let sandboxStarting: Promise<RunningSandbox> | undefined
  const sandboxUrl = (): string => options.baseUrlOverride ?? sandbox?.baseUrl ?? ''

  const session = new Session({
    clock,
    keychain: options.keychain,
    profiles,
    events: {
      changed(state) {
        log?.info(`session ${state.status}`, { profileId: state.profileId, remembered: state.remembered, keychain: state.keychain })
        emit('session', state)
        for (const listener of sessionListeners) listener(state)
        updateTray()
      },
      expiring(expiresAt) {
        emit('session.expiring', { expiresAt })
        const minutes = Math.max(1, Math.round((expiresAt - clock.now()) / 60_000))
        deliver(expiringNotification(notificationId('expiring'), minutes))
      },
      warning: warn
    }
  })

  // ------------------------------------------------------------ cloud clients

  const clients = new Map<string, CloudClient>()
  let createClient: ((o: CloudClientOptions) => CloudClient) | undefined = options.cloudClientFactory
  const clientFor = (profile: Profile): CloudClient => {
    if (!profile.baseUrl) {
      throw new AppError('internal', 'The Sandbox is still starting. Try again in a moment.')
    }
    let client = clients.get(profile.baseUrl)
    if (!client) {
      if (!createClient) throw new AppError('internal', 'The cloud client is not loaded yet. Try again in a moment.')
      client = createClient({ baseUrl: profile.baseUrl, token: () => session.accessToken() })
      clients.set(profile.baseUrl, client)
    }
    return client
  }
  const loadClientFactory = async (): Promise<void> => {
    if (createClient) return
    const module = await import('./cloud/client')
    createClient = module.createCloudClient
  }

  const findProfile = (id: string): Profile | undefined => allProfiles(profiles.get(), sandboxUrl()).find((p) => p.id === id)
  const currentProfile = (): Profile => {
    const profile = findProfile(session.currentProfileId) ?? findProfile(SANDBOX_PROFILE_ID)
    if (!profile) throw new AppError('internal', 'No profile is selected.')
    return profile
  }

  const ensureSandbox = async (): Promise<void> => {
    if (options.baseUrlOverride !== undefined || sandbox) return
    sandboxStarting ??= (async () => {
      const start: StartEmulator =
        options.startEmulator ?? (await import('../emulator/index')).startEmulator
      return startSandbox({ dataDir: options.dataDir, start, ...(options.reach ? { reach: options.reach } : {}) })
    })()
    try {
      sandbox = await sandboxStarting
    } catch (error) {
      sandboxStarting = undefined
      throw new AppError('internal', `The Sandbox could not start: ${(error as Error).message}`, { cause: error })
    }
  }

  // ------------------------------------------------------------ watcher, notifications, tray

  let health: WatchHealth = { state: 'ok' }
  const actions = { stopping: new Set<string>(), terminating: new Set<string>(), created: new Set<string>() }
  let notificationCounter = 0
  const notificationId = (kind: NotificationKind, instanceId?: string): string =>
    `${kind}-${instanceId ?? 'all'}-${++notificationCounter}`
  const deliver = (notification: AppNotification): void => {
    emit('notification', notification)
    try {
      platform.showNotification(notification)
    } catch {
      // A desktop without a notification service still gets the in-app toast above.
    }
  }

  const watcher = new Watcher({
    clock,
    random,
    list: () => clientFor(currentProfile()).listAllInstances(),
    intervals: () => settingsStore.get().pollIntervals,
    toErrorInfo,
    onSnapshot(snapshot) {
      emit('instances', snapshot)
      for (const listener of snapshotListeners) listener(snapshot)
      updateTray()
    },
    onTransitions(transitions) {
      emit('transitions', transitions)
      const result = notificationsFor(transitions, actions, settingsStore.get().notifications, notificationId)
      for (const id of result.settled.stopping) actions.stopping.delete(id)
      for (const id of result.settled.terminating) actions.terminating.delete(id)
      for (const id of result.settled.created) actions.created.delete(id)
      for (const notification of result.notifications) deliver(notification)
    },
    onHealth(next) {
      if (next.state === 'failing') log?.warn(`watch failing: ${next.error?.kind}: ${next.error?.message}`)
      else log?.info('watch recovered')
      health = next
      emit('watch.health', next)
      updateTray()
    },
    onNotLoggedIn() {
      void expireSession(null)
    }
  })

  let lastTray = ''
  let currentTray: TrayModel | undefined
  function updateTray(): void {
    const model = trayModel(session.state(), watcher.snapshot(), settingsStore.get(), {
      ...groupTrayContext(),
      health,
      profileName: findProfile(session.currentProfileId)?.name ?? ''
    })
    const json = JSON.stringify(model)
    currentTray = model
    if (json === lastTray) return
    lastTray = json
    emit('tray', model)
    try {
      platform.setTray(model)
    } catch {
      // The tray is a convenience; the window keeps working without it.
    }
  }

  // ------------------------------------------------------------ expiry and the re-login gate

  async function expireSession(pending: CommandName | null): Promise<void> {
    const wasLive = session.state().status === 'signed-in'
    if (wasLive) {
      watcher.sessionExpired()
      await session.expire()
    }
    if (wasLive || pending !== null) emit('session.expired', { pending })
  }

  const gate = new ReloginGate({
    session,
    isNotLoggedIn: (error) => toErrorInfo(error).kind === 'not-logged-in',
    expire: expireSession
  })

  // ------------------------------------------------------------ services for command groups

  const services: CoreServices = {
    dataDir: options.dataDir,
    clock,
    emit,
    platform,
    findInstance: (id) => watcher.find(id),
    currentProfile,
    accessToken: () => session.accessToken(),
    settings: () => settingsStore.get(),
    sandbox: (): SandboxInfo | undefined =>
      sandbox && session.currentProfileId === SANDBOX_PROFILE_ID ? sandbox.info : undefined,
    onSessionChange(listener) {
      sessionListeners.add(listener)
      return () => sessionListeners.delete(listener)
    },
    onSnapshot(listener) {
      snapshotListeners.add(listener)
      return () => snapshotListeners.delete(listener)
    },
    trayChanged: () => updateTray(),
    pollSoon(reason) {
      if (reason === 'user') void watcher.pollNow()
      else watcher.actionHappened()
    },
    cloud() {
      if (session.state().status === 'signed-out') {
        throw new AppError('no-session', 'You are signed out. Sign in to continue.')
      }
      return clientFor(currentProfile())
    },
    sessionState: () => session.state(),
    warn
  }

  const recent = new RecentLaunchesStore(options.dataDir)

  const internals: CoreInternals = {
    appInfo: () => ({
      version: options.version,
      shell: platform.shell,
      replaced:
        platform.shell === 'web'
          ? [
              'Desktop notifications appear as messages on this page.',
              'The tray menu is shown as a panel on this page.',
              'Notebook windows and links are recorded and listed instead of opened.'
            ]
          : []
    }),
    profiles: () => profilesState(profiles.get(), sandboxUrl(), sandbox?.access),
    async saveProfile(input) {
      await profiles.set(saveProfile(profiles.get(), input))
      return internals.profiles()
    },
    async removeProfile(id) {
      if (session.state().status !== 'signed-out' && session.currentProfileId === id) {
        throw new AppError('not-allowed', 'Sign out of this profile before removing it.')
      }
      await profiles.set(removeProfile(profiles.get(), id))
      session.followSelection(profiles.get().selectedId)
      return internals.profiles()
    },
    async selectProfile(id) {
      await profiles.set(selectProfile(profiles.get(), id))
      session.followSelection(id)
      if (id === SANDBOX_PROFILE_ID) await ensureSandbox()
      return internals.profiles()
    },
    async login(input: LoginInput) {
      const profile = findProfile(input.profileId)
      if (!profile) throw new AppError('bad-input', 'That profile no longer exists. Pick another one.', { field: 'profileId' })
      if (profile.builtIn === 'sandbox') await ensureSandbox()
      await loadClientFactory()
      const before = session.state()
      const result = await clientFor(findProfile(input.profileId)!).login({
        username: input.username,
        password: input.password,
        rememberMe: input.rememberMe
      })
      if (profiles.get().selectedId !== input.profileId) await profiles.set(selectProfile(profiles.get(), input.profileId))
      const continued = before.status === 'expired' && before.profileId === input.profileId && before.username === input.username
      // From here on every log line scrubs this token, whatever carries it.
      log?.secrets.add(result.accessToken)
      const state = await session.loggedIn(input, result)
      watcher.sessionStarted(continued)
      if (continued) {
        void platform.refreshNotebookCookies(input.profileId, result.accessToken).catch(() => undefined)
      }
      gate.release(state)
      return state
    },
    async logout() {
      watcher.sessionEnded()
      actions.stopping.clear()
      actions.terminating.clear()
      actions.created.clear()
      const state = await session.logout()
      gate.release(state)
      return state
    },
    snapshot: () => watcher.snapshot(),
    async refresh() {
      if (session.state().status === 'signed-out') throw new AppError('no-session', 'You are signed out. Sign in to see your instances.')
      await watcher.pollNow()
      return watcher.snapshot()
    },
    noteAction(action, instanceId) {
      if (action === 'stop') actions.stopping.add(instanceId)
      else if (action === 'terminate') actions.terminating.add(instanceId)
      else actions.created.add(instanceId)
    },
    forgetAction(action, instanceId) {
      if (action === 'stop') actions.stopping.delete(instanceId)
      else actions.terminating.delete(instanceId)
    },
    async rememberLaunch(request: CreateInstanceRequest) {
      await recent.add({ imageId: request.imageId, instanceTypeId: request.instanceTypeId, region: request.region, at: clock.now() })
    },
    suggestions: () => suggestionsFrom(watcher.snapshot().instances, recent.get()),
    async updateSettings(patch) {
      const before = settingsStore.get()
      const next = await settingsStore.update(patch)
      emit('settings', next)
      if (next.startAtLogin !== before.startAtLogin) platform.setStartAtLogin(next.startAtLogin)
      updateTray()
      return next
    },
    tray: () => {
      if (!currentTray) updateTray()
      return currentTray!
    },
    warnings: () => [...warnings],
    recorded: () => [...recorded],
    invoke: (command, input, context) => handle(command, input, context ?? { clientId: 'main' })
  }

  // ------------------------------------------------------------ command groups

  const groups: CommandGroup[] = COMMAND_GROUPS.map((make) => make(services, internals))
  groupTrayContext = () => Object.assign({}, ...groups.map((group) => group.trayContext?.() ?? {})) as Partial<TrayContext>
  const handlers = new Map<string, (input: never, context: ClientContext) => Promise<unknown>>()
  for (const group of groups) {
    for (const [name, handler] of Object.entries(group.handlers as CommandHandlers)) {
      if (handlers.has(name)) throw new Error(`Two command groups handle ${name}`)
      handlers.set(name, handler as never)
    }
  }

  async function handle<C extends CommandName>(
    command: C,
    input: unknown,
    context: ClientContext
  ): Promise<Result<CommandResult<C>>> {
    const schema = INPUT_SCHEMAS[command] as (typeof INPUT_SCHEMAS)[C] | undefined
    if (!schema) return fail({ kind: 'bad-input', message: `Unknown command ${String(command)}.` })
    const parsed = schema.safeParse(input)
    if (!parsed.success) return fail({ kind: 'bad-input', ...describeInputError(parsed.error) })
    const handler = handlers.get(command)
    if (!handler) return fail({ kind: 'internal', message: NOT_YET_MESSAGE })
    return run(command, handler, parsed.data, context) as Promise<Result<CommandResult<C>>>
  }

  async function run(
    command: CommandName,
    handler: (input: never, context: ClientContext) => Promise<unknown>,
    input: unknown,
    context: ClientContext
  ): Promise<Result<unknown>> {
    try {
      return ok(await gate.run(command, () => handler(input as never, context)))
    } catch (error) {
      const info = toErrorInfo(error)
      if (info.kind === 'internal') log?.error(`${command} failed`, { error: error instanceof Error ? error.stack : String(error) })
      return fail(info)
    }
  }

  // ------------------------------------------------------------ lifecycle

  let started = false

  return {
    async start() {
      if (started) return
      started = true
      const loaded = await settingsStore.load()
      if (loaded.warning) warn('settings-invalid', loaded.warning)
      const profilesWarning = await profiles.load()
      if (profilesWarning) warn('profiles-invalid', profilesWarning)
      session.followSelection(profiles.get().selectedId)
      await recent.load()
      await session.probeKeychain()
      await loadClientFactory()
      const pointer = profiles.get().remembered
      const needsSandbox = (pointer?.profileId ?? profiles.get().selectedId) === SANDBOX_PROFILE_ID
      if (needsSandbox) {
        try {
          await ensureSandbox()
        } catch (error) {
          warn('sandbox', (error as Error).message)
        }
      }
      if (await session.resume()) {
        log?.secrets.add(session.accessToken())
        watcher.sessionStarted(false)
      }
      updateTray()
    },
    async stop() {
      watcher.stop()
      session.dispose()
      // Quitting: commands waiting for a re-login end with their not-logged-in error.
      gate.cancelAll()
      for (const group of groups) await group.dispose?.()
      await recent.flushed()
      await Promise.all([...clients.values()].map((c) => c.close().catch(() => undefined)))
      clients.clear()
      await sandbox?.close()
      sandbox = undefined
      sandboxStarting = undefined
    },
    handle,
    subscribe(sink) {
      sinks.add(sink)
      return () => sinks.delete(sink)
    },
    clientGone(clientId: ClientId) {
      for (const group of groups) group.clientGone?.(clientId)
    },
    openInstance(instanceId) {
      platform.showWindow()
      emit('navigate', instanceId !== undefined ? { view: 'instances', instanceId } : { view: 'instances' })
    },
    onSystemEvent(event) {
      if (event === 'suspend') watcher.pause('asleep')
      else if (event === 'resume') watcher.resume('asleep')
      else if (event === 'online') watcher.online()
      else if (event === 'focus') watcher.focus()
      for (const group of groups) group.onSystemEvent?.(event)
    }
  }
}

/** Any thrown value → the plain error a Result carries. Unknown errors become `internal`. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof AppError) return error.toInfo()
  if (isCloudError(error)) return error.toInfo()
  const message = error instanceof Error ? error.message : String(error)
  return {
    kind: 'internal',
    message: `Something went wrong inside Cloud Tray (${message}). Try again; if it keeps happening, restart Cloud Tray.`
  }
}

export type { EventName, Events }
