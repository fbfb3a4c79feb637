/**
 * The app's engine in plain Node, read top to bottom as its table of contents: each part is built
 * in dependency order and handed the parts it needs. Parts hear each other on the hub
 * (event-hub.ts): each event reaches the transports first, then the parts in the order they are
 * built below; nothing here rings anyone after a change. A shell brings a transport (Electron's is
 * ipc.ts), its Platform (core-types.ts) and its options (core-options.ts); the core never imports electron.
 * Each part's listeners, timers and the calls others make on it run under a guard of its own
 * (supervisor.ts, parts.ts): one part's throw never takes main down (#21).
 */
import { systemClock } from '../shared/clock'
import { Account } from './account/account'
import { BalanceModel } from './billing/balance-model'
import { Catalog } from './catalog/catalog'
import { createDispatcher } from './commands/dispatcher'
import { commandGroups } from './commands/index'
import type { AppCoreOptions } from './core-options'
import { MAIN_CLIENT, type AppCore } from './core-types'
import { CostGuard } from './cost/cost-guard'
import { execRunner } from './cost/exec-runner'
import { guardStoreIn } from './cost/guard-store'
import { toErrorInfo } from './error-info'
import { EventHub } from './event-hub'
import { jobsOn } from './jobs/jobs-on'
import { Notifier } from './notify/notifier'
import { osSafePlatform } from './os-text'
import { guardCalls, superviseMain } from './parts'
import { SettingsStore } from './settings/settings-store'
import { SshWing } from './ssh/ssh-wing'
import { TrayPresenter } from './tray/tray-presenter'
import { UpdateService } from './update/update-service'
import { Warnings } from './warnings'
import { Watcher } from './watch/watcher'

export type { AppCoreOptions } from './core-options'

export function createAppCore(options: AppCoreOptions): AppCore {
  const { dataDir, log, version } = options
  const clock = options.clock ?? systemClock()
  const events = new EventHub(log)
  const emit = events.emit
  const warnings = new Warnings(emit, log)
  const { supervisor, parts, under } = superviseMain({ log, clock, events, warnings })
  const platform = osSafePlatform(options.platform)
  const settings = new SettingsStore(dataDir, clock)
  const account = new Account({ ...options, ...under(parts.account), warn: warnings.warn, unwarn: warnings.clear, notebooks: platform })
  const notifier = new Notifier({ platform, settings, ...under(parts.notify) })
  const watcher = new Watcher({
    clock: parts.watch.clock(clock),
    emit,
    log,
    toErrorInfo,
    random: options.random ?? Math.random,
    list: () => account.client().listAllInstances(),
    intervals: () => settings.get().pollIntervals,
    stuckAfterMs: () => settings.get().stuckStartMinutes * 60_000,
    onStuck: (stuck) => notifier.stuck(stuck),
    onNotLoggedIn: () => void account.expire(null)
  })
  const balance = new BalanceModel({
    clock: parts.balance.clock(clock),
    emit,
    toErrorInfo,
    fetch: () => account.cloud().balance(),
    threshold: () => settings.get().lowBalanceThreshold,
    low: (available, threshold) => notifier.lowBalance(available, threshold)
  })
  const catalog = new Catalog({ dataDir, clock: parts.catalog.clock(clock), account, toErrorInfo, emit })
  // What runs only while signed in starts and stops at the session's moments.
  for (const part of [watcher, balance, catalog]) account.listen(part)
  const wing = new SshWing({ dataDir, ...under(parts.ssh), platform, settings, account, watcher })
  const door = createDispatcher({ run: (command, attempt) => account.run(command, attempt), log })
  const guard = new CostGuard({
    ...under(parts.cost),
    supervisor,
    settings,
    notify: notifier,
    instances: watcher,
    store: guardStoreIn(dataDir, clock, log),
    scope: () => account.accountKey(),
    // nvidia-smi on the instance's shared SSH link, or one exec-only connection kept between probes: never a prompt.
    runner: execRunner(wing.links),
    // The Stop button's own command: checked, recorded as this app's action, through the re-login gate.
    stop: (instanceId) => door.handle('instances.stop', { instanceId }, { clientId: MAIN_CLIENT }),
    balance: () => balance.spendable(),
    ...(log ? { log } : {})
  })
  // A restart to update waits while the wing has a terminal, a tunnel or a transfer open.
  const updates = new UpdateService({ clock, emit, events, settings, log, engine: options.updater, current: version, activity: wing })
  const shown = { account, watcher, balance, guard, updates, tunnels: wing.tunnels, problems: () => supervisor.problems() }
  const tray = new TrayPresenter({ ...under(parts.tray), platform, settings, ...shown })
  // Run a job…: its end told (and the instance stopped, if asked) even after a restart.
  const jobs = jobsOn({ dataDir, ...under(parts.jobs), wing, account, watcher, notifier, guard, platform, log })
  guardCalls(parts, { watcher, balance, catalog, notifier, wing })
  // The door answers with one command group per area, each made of the parts it needs (commands/index.ts).
  const ground = { version, clock, emit, platform, warnings, settings, account, notifier, watcher, balance, catalog }
  door.serve(commandGroups({ ...ground, wing, guard, updates, jobs, tray }))

  /** Settings, profiles (the tray's first menu follows them), the cost guard's rules and the catalog from disk. */
  const readLocalState = async (): Promise<void> => {
    const loaded = await settings.load()
    if (loaded.warning) warnings.warn('settings-invalid', loaded.warning)
    await account.loadProfiles()
    const [rules] = await Promise.all([guard.load(), catalog.load(), wing.savedTabs.load(), jobs.load()])
    if (rules.warning) warnings.warn('cost-guard-invalid', rules.warning)
  }
  let started = false
  /** What the first commands wait for (set by start(); never rejects). */
  let localStateRead: Promise<void> = Promise.resolve()
  return {
    async start() {
      if (started) return
      started = true
      const reading = readLocalState()
      localStateRead = reading.catch(() => undefined)
      await reading
      await account.start()
      updates.start()
    },
    async stop() {
      updates.stop()
      watcher.stop()
      guard.dispose()
      jobs.dispose()
      balance.stop()
      account.stop()
      wing.dispose()
      await Promise.all([catalog.close(), guard.flushed(), jobs.flushed(), wing.savedTabs.flushed()])
      await account.close()
    },
    // The window opens while start() still runs: its first questions wait for the saved state only.
    handle: async (command, input, context) => {
      await localStateRead
      return door.handle(command, input, context)
    },
    notice: (notice, input, context) => door.notice(notice, input, context),
    subscribe: (sink) => events.subscribe(sink),
    clientGone: (clientId) => wing.clientGone(clientId),
    openInstance(instanceId) {
      platform.showWindow()
      emit('navigate', instanceId !== undefined ? { view: 'instances', instanceId } : { view: 'instances' })
    },
    onSystemEvent(event) {
      watcher.onSystemEvent(event)
      wing.onSystemEvent(event)
    },
    quitOffer: () => guard.quitOffer()
  }
}
