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
import { Availability } from './availability/availability'
import { BalanceModel } from './billing/balance-model'
import { LowBalanceMemory } from './billing/low-balance-memory'
import { Catalog } from './catalog/catalog'
import { createDispatcher } from './commands/dispatcher'
import { commandGroups } from './commands/index'
import { notificationActivator } from './commands/notification-actions'
import type { AppCoreOptions } from './core-options'
import { MAIN_CLIENT, type AppCore, type CreateCommand } from './core-types'
import { CostGuard } from './cost/cost-guard'
import { execRunner } from './cost/exec-runner'
import { guardStoreIn } from './cost/guard-store'
import { toErrorInfo } from './error-info'
import { EventHub } from './event-hub'
import { jobsOn } from './jobs/jobs-on'
import { ProxyAuth } from './network/proxy-auth'
import { connectProbe } from './network/proxy-probe'
import { proxyHostPort } from './network/proxy-rules'
import { Notifier } from './notify/notifier'
import { KeepAwake } from './power/keep-awake'
import { osSafePlatform } from './os-text'
import { guardCalls, superviseMain } from './parts'
import { SettingsStore } from './settings/settings-store'
import { SshWing } from './ssh/ssh-wing'
import { Templates } from './templates/templates'
import { TrayPresenter } from './tray/tray-presenter'
import { UpdateService } from './update/update-service'
import { Warnings } from './warnings'
import { saveProblemsIn } from './util/save-problems'
import { Watcher } from './watch/watcher'

export type { AppCoreOptions } from './core-options'

export function createAppCore(options: AppCoreOptions): AppCore {
  const { dataDir, log, version } = options
  const clock = options.clock ?? systemClock()
  const events = new EventHub(log)
  const emit = events.emit
  const warnings = new Warnings(emit, log)
  // A file main writes in the background that the disk refuses: a warning until a write works.
  const problems = saveProblemsIn(warnings)
  const { supervisor, parts, under } = superviseMain({ log, clock, events, warnings })
  const platform = osSafePlatform(options.platform)
  const settings = new SettingsStore(dataDir, clock)
  // A company proxy's user name and password, asked of the window on a 407 and given to every cloud client.
  const network = options.network
  const proxies = new ProxyAuth({
    keychain: options.keychain,
    emit,
    now: () => clock.now(),
    log,
    probe: connectProbe(network ? { secureContext: () => network.secureContext() } : {})
  })
  const account = new Account({
    ...options,
    ...under(parts.account),
    network: network && proxies.around(network),
    warn: warnings.warn,
    unwarn: warnings.clear,
    notebooks: platform
  })
  const notifier = new Notifier({ platform, settings, ...under(parts.notify) })
  const watcher = new Watcher({
    ...under(parts.watch),
    toErrorInfo,
    random: options.random ?? Math.random,
    list: () => account.client().listAllInstances(),
    intervals: () => settings.get().pollIntervals,
    stuckAfterMs: () => settings.get().stuckStartMinutes * 60_000,
    onStuck: (stuck) => notifier.stuck(stuck),
    onNotLoggedIn: () => void account.expire(null)
  })
  const balance = new BalanceModel({
    ...under(parts.balance),
    toErrorInfo,
    fetch: () => account.cloud().balance(),
    threshold: () => settings.get().lowBalanceThreshold,
    low: (available, threshold) => notifier.lowBalance(available, threshold, account.currentProfile().builtIn === 'sandbox'),
    account: () => account.accountKey(),
    warned: new LowBalanceMemory(dataDir, (error) => log?.warn('could not keep the low-balance warnings', { error: String(error) }))
  })
  const catalog = new Catalog({ dataDir, clock: parts.catalog.clock(clock), account, toErrorInfo, emit })
  // The computer does not idle to sleep while an upload or a download runs (power/keep-awake.ts).
  const awake = new KeepAwake((hold) => platform.keepAwake?.(hold))
  const wing = new SshWing({
    dataDir,
    problems,
    ...under(parts.ssh),
    platform,
    settings,
    account,
    watcher,
    environment: options.sshEnvironment,
    transfersChanged: (transfers) => awake.update({ transfers })
  })
  const door = createDispatcher({ run: (command, attempt) => account.run(command, attempt), log })
  // A launch main makes itself (a watch's, a template's without the window) is the Create button's own command.
  const create: CreateCommand = (request, origin) => door.handle('instances.create', { request, origin }, { clientId: MAIN_CLIENT })
  const templates = new Templates({ dataDir, problems, ...under(parts.templates), account, catalog, find: (id) => watcher.find(id) })
  const availability = new Availability({
    ...options,
    problems,
    ...under(parts.availability),
    account,
    catalog,
    templates,
    create,
    notifier
  })
  // What runs only while signed in starts and stops at the session's moments.
  for (const part of [watcher, balance, catalog, availability]) account.listen(part)
  const guard = new CostGuard({
    ...under(parts.cost),
    supervisor,
    settings,
    notify: notifier,
    instances: watcher,
    store: guardStoreIn(dataDir, clock, log, problems),
    scope: () => account.accountKey(),
    // nvidia-smi on the instance's shared SSH link, or one exec-only connection kept between probes: never a prompt.
    runner: execRunner(wing.links),
    // The Stop button's own command: checked, recorded as this app's action, through the re-login gate.
    stop: (instanceId) => door.handle('instances.stop', { instanceId }, { clientId: MAIN_CLIENT }),
    balance: () => balance.spendable()
  })
  // A restart to update waits while the wing has a terminal, a tunnel or a transfer open.
  const updates = new UpdateService({ ...under(parts.update), settings, engine: options.updater, current: version, activity: wing })
  const shown = { account, watcher, balance, guard, updates, tunnels: wing.tunnels, problems: () => supervisor.problems() }
  const tray = new TrayPresenter({ ...under(parts.tray), platform, settings, ...shown, launch: { templates, availability } })
  const jobs = jobsOn({ dataDir, problems, ...under(parts.jobs), wing, account, watcher, notifier, guard, platform })
  guardCalls(parts, { watcher, balance, catalog, notifier, wing, availability })
  // The door answers with one command group per area, each made of the parts it needs (commands/index.ts).
  const ground = { version, clock, emit, platform, warnings, settings, account, notifier, watcher, balance, catalog }
  door.serve(commandGroups({ ...ground, wing, guard, updates, templates, availability, jobs, tray, create, proxies }))

  /** Settings, profiles (the tray's first menu follows them), the cost guard's rules, the catalog, templates and watches from disk. */
  const readLocalState = async (): Promise<void> => {
    const loaded = await settings.load()
    if (loaded.warning) warnings.warn('settings-invalid', loaded.warning)
    await account.loadProfiles()
    await Promise.all([wing.load(), jobs.load(), balance.load()])
    const [rules, , ...files] = await Promise.all([guard.load(), catalog.load(), templates.load(), availability.load()])
    if (rules.warning) warnings.warn('cost-guard-invalid', rules.warning)
    for (const [index, warning] of files.flat().entries()) warnings.warn(`launch-files-invalid-${index}`, warning)
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
      availability.stop()
      for (const part of [guard, jobs]) part.dispose()
      balance.stop()
      account.stop()
      wing.dispose()
      await Promise.all([catalog.close(), ...[guard, templates, availability, balance, jobs, wing].map((part) => part.flushed())])
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
    notificationActivated: notificationActivator({ handle: door.handle, platform, emit, log }),
    onSystemEvent: (event) => [watcher, wing, availability].forEach((part) => part.onSystemEvent(event)),
    quitOffer: () => guard.quitOffer(),
    proxyCredential: (hostPort) => proxies.credentialFor(hostPort),
    proxyChallenged: (proxyUri, target, refusedGiven) =>
      void proxies.refused(proxyUri, target, refusedGiven ? proxies.tokenFor(proxyHostPort(proxyUri)) : undefined)
  }
}
