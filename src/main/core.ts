/**
 * The app's engine in plain Node, as wiring only: each part of main is built from its own module
 * and handed the capabilities it needs. Every shell uses it through a transport (Electron's is
 * ipc.ts). It never imports electron; what only Electron can do is the shell's Platform
 * (core-types.ts).
 *
 *   events, warnings      event-hub.ts, warnings.ts
 *   the platform          the shell's, with every text for the OS made safe (os-text.ts)
 *   settings, images      settings/settings-store.ts, catalog/image-book.ts
 *   the account           account/account.ts: profiles, session, Sandbox, cloud clients, re-login gate
 *   the watcher           watch/watcher.ts: polls the instance list while signed in
 *   notifications         notify/notifier.ts
 *   the catalog, balance  catalog/catalog-cache.ts, billing/balance-model.ts: read while signed in
 *   the cost guard        cost/cost-guard.ts: meter, GPU probes, rules that remind and stop
 *   the tray              tray/tray-presenter.ts
 *   updates               update/update-service.ts: the shell's engine, asked at start and every 6 h
 *   the commands          commands/*.ts, one group per area, answered by commands/dispatcher.ts
 *                         (the ssh group also follows the session and the instance list for its tunnels)
 */
import { spendableOf } from '../shared/balance'
import { systemClock } from '../shared/clock'
import type { Result } from '../shared/contract'
import { Account } from './account/account'
import { BalanceModel } from './billing/balance-model'
import { CatalogCache } from './catalog/catalog-cache'
import { ImageBookStore, imageUsed } from './catalog/image-book'
import { appCommands } from './commands/app'
import { billingCommands } from './commands/billing'
import { catalogCommands, catalogView, type CatalogServices } from './commands/catalog'
import { costCommands } from './commands/cost'
import { createDispatcher } from './commands/dispatcher'
import { instanceCommands } from './commands/instances'
import { notebookCommands, openNotebook, type NotebookServices } from './commands/notebook'
import { profileCommands } from './commands/profiles'
import { sessionCommands } from './commands/session'
import { settingsCommands } from './commands/settings'
import { sshCommands } from './commands/ssh'
import { trayCommands } from './commands/tray'
import { volumeCommands } from './commands/volumes'
import { MAIN_CLIENT, type AppCore, type AppCoreOptions } from './core-types'
import { CostGuard } from './cost/cost-guard'
import { execRunner } from './cost/exec-runner'
import { GuardStore } from './cost/guard-store'
import { toErrorInfo } from './error-info'
import { EventHub } from './event-hub'
import { Notifier } from './notify/notifier'
import { osSafePlatform } from './os-text'
import { SettingsStore } from './settings/settings-store'
import { TrayPresenter } from './tray/tray-presenter'
import { Warnings } from './warnings'
import { Watcher } from './watch/watcher'
import { UpdateService } from './update/update-service'
import { updateCommands } from './commands/update'

export function createAppCore(options: AppCoreOptions): AppCore {
  const { dataDir, log } = options
  const clock = options.clock ?? systemClock()
  const events = new EventHub()
  const emit = events.emit
  const warnings = new Warnings(emit, log)
  const platform = osSafePlatform(options.platform)
  const settings = new SettingsStore(dataDir, clock)
  const images = new ImageBookStore(dataDir)

  const account = new Account({
    ...options, // the data folder, keychain, log, and where the cloud or the Sandbox comes from
    clock,
    emit,
    warn: warnings.warn,
    unwarn: warnings.clear,
    refreshNotebookCookies: (profileId, token) => platform.refreshNotebookCookies(profileId, token),
    endNotebookSession: platform.endNotebookSession ? (profileId) => platform.endNotebookSession!(profileId) : undefined
  })
  const notifier = new Notifier({ platform, settings, clock })
  const watcher = new Watcher({
    clock,
    random: options.random ?? Math.random,
    list: () => account.client().listAllInstances(),
    intervals: () => settings.get().pollIntervals,
    toErrorInfo,
    onSnapshot(snapshot) {
      emit('instances', snapshot)
      ssh.instancesChanged(snapshot)
      guard.snapshotChanged()
      tray.update()
    },
    onTransitions(transitions) {
      emit('transitions', transitions)
      notifier.transitions(transitions)
    },
    stuckAfterMs: () => settings.get().stuckStartMinutes * 60_000,
    onStuck(stuck) {
      notifier.stuck(stuck)
      tray.update()
    },
    onHealth(health) {
      if (health.state === 'failing') log?.warn(`watch failing: ${health.error?.kind}: ${health.error?.message}`)
      else log?.info('watch recovered')
      emit('watch.health', health)
      tray.setHealth(health)
    },
    onNotLoggedIn: () => void account.expire(null)
  })
  const balance = new BalanceModel({
    clock,
    fetch: () => account.cloud().balance(),
    toErrorInfo,
    threshold: () => settings.get().lowBalanceThreshold,
    low: (available, threshold) => notifier.lowBalance(available, threshold)
  })
  const catalogCache = new CatalogCache({
    dataDir,
    clock,
    fetch: () => account.cloud().catalog(),
    toErrorInfo,
    changed(profileId) {
      if (profileId === catalog.profileId()) emit('catalog', catalogView(catalog, profileId))
    }
  })
  const catalog: CatalogServices = {
    profileId: () => account.currentProfile().id,
    signedIn: () => account.state().status === 'signed-in',
    cache: catalogCache,
    book: images,
    sandboxImages: (profileId) => account.sandboxImages(profileId)
  }
  const guard = new CostGuard({
    clock,
    settings,
    store: new GuardStore(
      dataDir,
      () => clock.now(),
      (error) => log?.warn('cost guard: could not save its rules', { error: String(error) })
    ),
    scope() {
      const session = account.state()
      return session.status === 'signed-out' ? undefined : `${session.profileId}/${session.username ?? ''}`
    },
    instances: watcher,
    // nvidia-smi over the instance's shared SSH link (ssh/links/links.ts exec): its connection, or one
    // exec-only connection kept between probes; never a prompt, never a login per probe.
    runner: execRunner({ exec: (instanceId, command, execOptions) => ssh.links.exec(instanceId, command, execOptions) }),
    // The Stop button's own command: checked, recorded as this app's action, through the re-login gate.
    stop: (instanceId): Promise<Result<{ instanceId: string }>> =>
      dispatcher.handle('instances.stop', { instanceId }, { clientId: MAIN_CLIENT }),
    notify: notifier,
    // The runway reads main's balance model, never the cloud itself.
    balance: () => {
      const known = balance.snapshot().balance
      return known ? spendableOf(known) : undefined
    },
    emit,
    changed: () => tray.update(),
    ...(log ? { log } : {})
  })
  const updates = new UpdateService({
    engine: options.updater,
    current: options.version,
    clock,
    channel: () => settings.get().updateChannel,
    blockers: () => ssh.activity(),
    changed(state) {
      emit('update', state)
      tray.update()
    },
    ...(log ? { log: (line: string) => log.info(line) } : {})
  })
  const tray = new TrayPresenter({
    update: () => updates.snapshot(),
    session: account,
    instances: watcher,
    settings,
    balance,
    cost: guard,
    platform,
    tunnels: () => ssh.tunnels.list()
  })
  balance.listen((snapshot) => {
    emit('balance', snapshot)
    tray.update()
    // The runway follows the balance.
    guard.snapshotChanged()
  })
  account.listen({
    changed(state) {
      ssh.sessionChanged(state)
      guard.snapshotChanged()
      tray.update()
    },
    expiring: (expiresAt) => notifier.sessionExpiring(expiresAt),
    started(continued) {
      watcher.sessionStarted(continued)
      balance.sessionStarted()
      // The create form opens with what is cached; a fresh read follows in the background.
      if (catalog.cache.stale(catalog.profileId())) void catalog.cache.refresh(catalog.profileId())
    },
    ending() {
      watcher.sessionEnded()
      balance.sessionEnded(true)
      notifier.forgetOwnActions()
    },
    expired() {
      watcher.sessionExpired()
      balance.sessionEnded(false)
    }
  })

  const findInstance = (instanceId: string) => watcher.find(instanceId)
  const currentProfile = () => account.currentProfile()
  const sandbox = () => account.sandbox()
  const needsNotebookPassword = (): boolean => {
    const state = account.state()
    return state.status === 'signed-in' && state.method === 'api-key' && account.accessToken() === undefined
  }
  const notebooks: NotebookServices = {
    platform,
    accessToken: () => account.accessToken(),
    needsNotebookPassword,
    findInstance,
    currentProfile,
    sandbox
  }
  const ssh = sshCommands({
    dataDir,
    clock,
    emit,
    findInstance,
    currentProfile,
    settings: () => settings.get(),
    sandbox,
    platform,
    sessionState: () => account.state(),
    tunnelsChanged: () => tray.update()
  })
  const dispatcher = createDispatcher(
    [
      appCommands({ version: options.version, platform, warnings: () => warnings.all() }),
      profileCommands(account),
      sessionCommands(account),
      instanceCommands({
        clock,
        account,
        watch: watcher,
        own: notifier,
        images: { used: (imageId) => images.change((book) => imageUsed(book, currentProfile().id, imageId, clock.now())) }
      }),
      volumeCommands(account),
      catalogCommands(catalog),
      billingCommands({ signedIn: catalog.signedIn, balance }),
      settingsCommands({
        store: settings,
        emit,
        platform,
        changed(next, before) {
          if (next.lowBalanceThreshold !== before.lowBalanceThreshold) balance.thresholdChanged()
          if (next.updateChannel !== before.updateChannel) updates.channelChanged()
          tray.update()
        }
      }),
      trayCommands({
        tray: () => tray.model(),
        platform,
        emit,
        refresh: () => void watcher.pollNow(),
        signOut: () => account.logout(),
        findInstance,
        openNotebook: (instanceId) => openNotebook(notebooks, instanceId),
        needsNotebookPassword,
        sshCommand: async (instanceId) => (await ssh.handlers['ssh.command']({ instanceId }, { clientId: MAIN_CLIENT })).command,
        tunnels: {
          start: (instanceId, remotePort, clientId) => ssh.handlers['tunnels.start']({ instanceId, remotePort }, { clientId }),
          stop: (tunnelId) => ssh.tunnels.stop(tunnelId),
          open: (tunnelId) => ssh.tunnels.open(tunnelId),
          address: (tunnelId) => ssh.tunnels.list().find((tunnel) => tunnel.tunnelId === tunnelId)?.localAddress
        },
        keepRunning: (instanceId) => void guard.keepRunning(instanceId),
        restartToUpdate: () => updates.restart(false)
      }),
      notebookCommands(notebooks),
      ssh,
      costCommands({ guard }),
      updateCommands(updates)
    ],
    { run: (command, attempt) => account.run(command, attempt), log }
  )

  let started = false
  /** Settings, profiles, the image book and the catalog cache read from disk (set by start(); never rejects). */
  let localStateRead: Promise<void> = Promise.resolve()
  const readLocalState = async (): Promise<void> => {
    const loaded = await settings.load()
    if (loaded.warning) warnings.warn('settings-invalid', loaded.warning)
    await account.loadProfiles()
    const [rules] = await Promise.all([guard.load(), images.load(), catalogCache.load()])
    if (rules.warning) warnings.warn('cost-guard-invalid', rules.warning)
  }
  return {
    async start() {
      if (started) return
      started = true
      const reading = readLocalState()
      localStateRead = reading.catch(() => undefined)
      await reading
      // The tray's menu at once, before the Sandbox starts or the keychain is asked.
      tray.update()
      await account.start()
      tray.update()
      updates.start()
    },
    async stop() {
      updates.stop()
      watcher.stop()
      guard.dispose()
      balance.stop()
      account.stop()
      await dispatcher.dispose()
      await Promise.all([images.flushed(), catalogCache.close(), guard.flushed()])
      await account.close()
    },
    // The window opens while start() still runs: its first questions wait for the saved state only.
    handle: async (command, input, context) => {
      await localStateRead
      return dispatcher.handle(command, input, context)
    },
    notice: (notice, input, context) => dispatcher.notice(notice, input, context),
    subscribe: (sink) => events.subscribe(sink),
    clientGone: (clientId) => dispatcher.clientGone(clientId),
    openInstance(instanceId) {
      platform.showWindow()
      emit('navigate', instanceId !== undefined ? { view: 'instances', instanceId } : { view: 'instances' })
    },
    onSystemEvent(event) {
      watcher.onSystemEvent(event)
      dispatcher.onSystemEvent(event)
    },
    quitOffer: () => guard.quitOffer()
  }
}
