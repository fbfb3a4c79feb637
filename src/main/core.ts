/**
 * The app's engine in plain Node, read top to bottom as its table of contents: each part of main
 * is built from its own module, in dependency order, and handed the parts it needs. Parts hear
 * each other on the hub (event-hub.ts), so nothing here rings anyone after a change: each event
 * reaches the transports first, then the SSH wing, the cost guard and the tray, in the order they
 * are built below. A shell uses the core through a transport (Electron's is ipc.ts) and its
 * Platform (core-types.ts); the core never imports electron.
 */
import type { Clock } from '../shared/clock'
import { systemClock } from '../shared/clock'
import { Account, type AccountOptions } from './account/account'
import { BalanceModel } from './billing/balance-model'
import { Catalog } from './catalog/catalog'
import { createDispatcher } from './commands/dispatcher'
import { commandGroups } from './commands/index'
import { MAIN_CLIENT, type AppCore, type Platform } from './core-types'
import { CostGuard } from './cost/cost-guard'
import { execRunner } from './cost/exec-runner'
import { GuardStore } from './cost/guard-store'
import { toErrorInfo } from './error-info'
import { EventHub } from './event-hub'
import { JobStore } from './jobs/job-store'
import { Jobs } from './jobs/jobs'
import { Notifier } from './notify/notifier'
import { osSafePlatform } from './os-text'
import { SettingsStore } from './settings/settings-store'
import { SshWing } from './ssh/ssh-wing'
import { TrayPresenter } from './tray/tray-presenter'
import { Warnings } from './warnings'
import { Watcher } from './watch/watcher'

/** What a shell gives the core; the account's options say where the cloud or the Sandbox comes from. */
export type AppCoreOptions = Pick<
  AccountOptions,
  'dataDir' | 'keychain' | 'log' | 'baseUrlOverride' | 'cloudClientFactory' | 'startEmulator' | 'reach'
> & {
  platform: Platform
  clock?: Clock
  version: string
  /** [0, 1) for poll jitter; injectable for deterministic tests. */
  random?: () => number
}

export function createAppCore(options: AppCoreOptions): AppCore {
  const { dataDir, log, version } = options
  const clock = options.clock ?? systemClock()
  const events = new EventHub(log)
  const emit = events.emit
  const warnings = new Warnings(emit, log)
  const platform = osSafePlatform(options.platform)
  const settings = new SettingsStore(dataDir, clock)
  const account = new Account({ ...options, clock, emit, warn: warnings.warn, notebooks: platform })
  const notifier = new Notifier({ platform, settings, clock, events })
  const watcher = new Watcher({
    clock,
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
    clock,
    emit,
    toErrorInfo,
    fetch: () => account.cloud().balance(),
    threshold: () => settings.get().lowBalanceThreshold,
    low: (available, threshold) => notifier.lowBalance(available, threshold)
  })
  const catalog = new Catalog({ dataDir, clock, account, toErrorInfo, emit })
  // What runs only while signed in starts and stops at the session's moments.
  for (const part of [watcher, balance, catalog]) account.listen(part)
  const wing = new SshWing({ dataDir, clock, emit, events, platform, settings, account, watcher })
  const door = createDispatcher({ run: (command, attempt) => account.run(command, attempt), log })
  const guard = new CostGuard({
    clock,
    settings,
    emit,
    events,
    notify: notifier,
    instances: watcher,
    store: new GuardStore(
      dataDir,
      () => clock.now(),
      (error) => log?.warn('cost guard: could not save its rules', { error: String(error) })
    ),
    scope: () => account.accountKey(),
    // nvidia-smi on the instance's shared SSH link, or one exec-only connection kept between probes: never a prompt.
    runner: execRunner(wing.links),
    // The Stop button's own command: checked, recorded as this app's action, through the re-login gate.
    stop: (instanceId) => door.handle('instances.stop', { instanceId }, { clientId: MAIN_CLIENT }),
    balance: () => balance.spendable(),
    ...(log ? { log } : {})
  })
  // Run a job…: a job in a tmux session of its own, its end told (and the instance stopped, if asked) even after a restart.
  const jobs = new Jobs({
    clock,
    store: new JobStore(dataDir),
    emit,
    events,
    exec: (instanceId, command, execOptions) => wing.links.exec(instanceId, command, execOptions),
    probe: (instanceId) => wing.sessions.probe(instanceId),
    endSession: (instanceId, name) => wing.sessions.end(instanceId, { socket: 'ours', name }),
    account,
    watcher,
    notify: notifier,
    stopAfterJob: (instanceId, reason) => guard.stopAfterJob(instanceId, reason),
    navigate: (target) => {
      platform.showWindow()
      emit('navigate', target)
    },
    ...(log ? { log } : {})
  })
  const tray = new TrayPresenter({ events, platform, settings, account, watcher, balance, guard, tunnels: wing.tunnels })
  door.serve(
    commandGroups({
      version,
      clock,
      emit,
      platform,
      warnings,
      settings,
      account,
      notifier,
      watcher,
      balance,
      catalog,
      wing,
      guard,
      jobs,
      tray
    })
  )

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
    },
    async stop() {
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
