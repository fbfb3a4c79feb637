/**
 * A day in the life of the core (#21): the real core (createAppCore) against its own Sandbox with
 * reach (an SSH server per instance, its nvidia-smi, its Jupyter), on an emulated clock, while:
 *
 * - 20 instances are created over ten hours (through `instances.create`, as the window does),
 *   run and are stopped by their rules (stop after, stop at, idle, reminders) or by hand;
 * - one of them is hostile: its nvidia-smi prints 200,000 lines; another's GPUs are busy;
 * - 5 terminals take output floods, acknowledged as xterm would; 2 port tunnels carry requests;
 * - every few minutes a fault: a dropped request, a lost answer, 503s, every token expired (the
 *   window signs in again), an instance's SSH server restarted;
 * - the core is stopped and started again twice (the session resumes from the keychain).
 *
 * It reports requests, faults, crashes (uncaught exceptions or unhandled rejections: target 0),
 * duplicate creates (0), events a window could not take (0), parts shown unhealthy, the process's
 * heap and RSS after warm-up and at the end (growth ≤ 10 %), terminal floods and tunnel requests
 * that came through, and whether each rule acted when due; it exits non-zero on any miss.
 *
 * Run: npx tsx bench/soak.ts [--days N]   (the short form, one day, finishes in a few minutes)
 * The process's memory includes the emulator and its SSH servers (they run in-process, as the
 * Sandbox does in the app); it is measured after a full garbage collection (--expose-gc).
 */
import './plays-main'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CostSnapshot } from '../src/shared/contract-cost'
import { startEmulator, type Emulator } from '../src/emulator/index'
import { REACH_FOLDER, safeFolderName } from '../src/emulator/reach/create-reach'
import { createReach, type EmulatorReach } from '../src/emulator/reach/index'
import type { ReachContext } from '../src/emulator/reach-types'
import { createMemoryKeychain } from '../src/main/account/keychain'
import { createAppCore } from '../src/main/core'
import { PROBE_PERIOD_MS } from '../src/main/cost/idle'
import { httpText } from '../src/main/ssh/testing/http-target'
import { sshTarget } from '../src/main/ssh/target'
import { createRequest } from '../src/main/testing/core-harness'
import type { AppNotification } from '../src/shared/contract'
import type { AppCore, Platform } from '../src/main/core-types'
import { COUNTDOWN_MINUTES, dayPlan, localTimeAfter, type PlannedInstance } from './soak/plan'
import { SoakClock } from './soak/soak-clock'
import { SoakWindow, WINDOW } from './soak/window'

// Memory is measured after a full collection: run again with --expose-gc when it is not there.
if (typeof globalThis.gc !== 'function') {
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit'
  })
  process.exit(run.status ?? 1)
}

const MIN = 60_000
const HOUR = 60 * MIN
const days = Number(process.argv[process.argv.indexOf('--days') + 1] ?? 1) || 1
const DAY_MS = days * 24 * HOUR
const STEP_MS = 10_000
/** The least real time one step takes while a flood is on its way, and otherwise (see the loop). */
const STEP_REAL_MS = 10
const STEP_IDLE_REAL_MS = 2
const FAULT_EVERY_MS = 7 * MIN
const RESTARTS_AT = [7 * HOUR, 15 * HOUR].filter((at) => at < DAY_MS)
const FLOOD_EVERY_MS = 2 * HOUR
const TUNNEL_EVERY_MS = 20 * MIN
/** Memory is compared from when the day's twenty instances are all there (the last is created at 9 h 35). */
const WARM_UP_MS = 10 * HOUR
const HEAP_GROWTH_TARGET = 0.1
const REAL_BUDGET_MS = 5 * 60_000 * days
/** How far after its due time a rule may act (polls, the readings' look, a countdown resumed after a restart). */
const LATE_MS = 4 * MIN
/** The terminals' size (the window's screens are made alike: tmux draws for it). */
const TERMINAL_SIZE = { cols: 120, rows: 40 }
const FLOOD = (round: number, index: number): string => `seq 1 100000; echo FLOOD-${round}-$((${index}+0))-DONE\r`
const HOSTILE_NVIDIA_SMI = `#!/bin/sh\nawk 'BEGIN { for (i = 0; i < 200000; i++) print "0,," }'\n`

// Crashes: anything that reaches the process (in the app, src/main/process-guard.ts decides).
const crashes: string[] = []
process.on('uncaughtException', (error) => void crashes.push(`uncaught: ${error.stack ?? String(error)}`))
process.on('unhandledRejection', (reason) => void crashes.push(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`))

const startedReal = Date.now()
const clock = new SoakClock(Date.now())
const dayStart = clock.now()
const dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-soak-'))
const keychain = createMemoryKeychain()
/** The desktop: notifications are kept (the rules' evidence); the tray only as its latest menu. */
const notifications: AppNotification[] = []
const platform: Platform = {
  showNotification: (notification) => void notifications.push(notification),
  setTray: () => undefined,
  openNotebook: async () => undefined,
  refreshNotebookCookies: async () => undefined,
  openExternal: async () => undefined,
  openEditor: async () => undefined,
  setStartAtLogin: () => undefined,
  showWindow: () => undefined,
  quit: () => undefined,
  writeClipboard: () => undefined
}
const makeReach = createReach()
let emulator: Emulator | undefined
let reach: EmulatorReach | undefined
let password = ''
const client = { clientId: WINDOW }

function buildCore(): AppCore {
  return createAppCore({
    dataDir,
    platform,
    keychain,
    version: '0.0.0-soak',
    clock,
    reach: async (context: ReachContext) => (reach = await makeReach(context)),
    startEmulator: async (sandbox) => (emulator = await startEmulator({ bootMs: 60_000, stopMs: 30_000, ...sandbox, clock }))
  })
}

let core = buildCore()
const window = new SoakWindow(async () => {
  const again = await core.handle('session.login', { profileId: 'sandbox', username: 'demo', password, rememberMe: true }, client)
  if (!again.ok) problems.push(`signing in again failed: ${again.error.message}`)
}, TERMINAL_SIZE)
window.attach(core)
await core.start()
const problems: string[] = []
{
  const profiles = await core.handle('profiles.get', undefined, client)
  password = (profiles.ok && profiles.value.demoPassword) || ''
  const login = await core.handle('session.login', { profileId: 'sandbox', username: 'demo', password, rememberMe: true }, client)
  if (!login.ok) throw new Error(`sign-in: ${login.error.message}`)
  const settings = await core.handle('settings.update', { costGuard: { countdownMinutes: COUNTDOWN_MINUTES } }, client)
  if (!settings.ok) throw new Error(`settings: ${settings.error.message}`)
}

// ---------------------------------------------------------------- the day's state

interface Live {
  plan: PlannedInstance
  instanceId?: string
  createFailed?: string
  rulesSet: boolean
  runStartedAt?: number
  firstReadingAt?: number
  stopAtTime?: number
  stoppedAt?: number
  userStopped?: boolean
  trustedPort?: number
  terminalId?: string
  tunnelPort?: number
  remindedAt?: number
  autoStopBody?: string
}
const lives: Live[] = dayPlan().map((plan) => ({ plan, rulesSet: false }))
const faults = { injected: 0, kinds: new Map<string, number>() }
let requestsBefore = 0
let floodRound = 0
const floodsSent: string[] = []
/** Whether a flood sent to this instance's terminal has not finished yet. */
const flooding = (live: Live): boolean => floodsSent.some((flood) => flood.endsWith(`-${live.plan.index}`) && !window.markers.has(flood))
const tunnel = { ok: 0, failed: 0, pending: new Set<Promise<void>>() }
let nextFaultAt = 3 * MIN
let nextFloodAt = 3 * HOUR
let nextTunnelAt = 30 * MIN
let restartsDone = 0
let faultTurn = 0
let restartTurn = 0
let heapAfterWarmUp: { heap: number; rss: number } | undefined
const heapPeak = { heap: 0, rss: 0 }
const hourly: { heap: number; rss: number }[] = []
let nextHeapAt = WARM_UP_MS + HOUR
let seenNotifications = 0

const elapsed = (): number => clock.now() - dayStart
const emu = (): Emulator => emulator!
const statusOf = (instanceId: string): string | undefined =>
  emu()
    .control.instances('demo')
    .find((instance) => instance.instanceMetadata.instanceId === instanceId)?.instanceRuntimeInfo.status
const running = (live: Live): boolean => live.instanceId !== undefined && statusOf(live.instanceId) === 'Running'

function measure(): { heap: number; rss: number } {
  globalThis.gc!()
  globalThis.gc!()
  const usage = process.memoryUsage()
  return { heap: usage.heapUsed, rss: usage.rss }
}

/** The guard's view as of the last step's end (what the scenario reads; one `cost.get` a step). */
let stepCost: CostSnapshot | undefined
async function costNow(): Promise<CostSnapshot | undefined> {
  const answer = await core.handle('cost.get', undefined, client)
  return answer.ok ? answer.value : undefined
}

/**
 * After each step, real time for the probes that fell due on instances whose host key the user
 * trusted (a fraction of a second at most): an honest answer over loopback lands before the
 * emulated clock moves on, so readings stay a minute apart (the idle rule counts a gap of 90 s
 * as a break), and a probe stuck on a dead connection still meets its deadline on the emulated
 * clock two steps later.
 */
let waitedOut = 0
async function quiet(): Promise<void> {
  const deadline = Date.now() + 300
  const trusted = new Set(lives.filter((live) => live.trustedPort !== undefined).map((live) => live.instanceId))
  for (;;) {
    const now = clock.now()
    const due = ((await costNow())?.instances ?? []).some((entry) => {
      if (!trusted.has(entry.instanceId) || entry.gpu.state === 'off') return false
      const latest = entry.gpu.latest
      return latest ? now >= latest.at + PROBE_PERIOD_MS : now >= entry.meter.runStartedAt + PROBE_PERIOD_MS
    })
    if (!due) return
    if (Date.now() > deadline) {
      waitedOut++
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

function fault(kind: string): void {
  faults.injected++
  faults.kinds.set(kind, (faults.kinds.get(kind) ?? 0) + 1)
}

async function injectFault(): Promise<void> {
  const control = emu().control
  switch (faultTurn++ % 5) {
    case 0:
      control.faults.dropNext(1)
      return fault('dropped request')
    case 1:
      control.faults.loseNextAnswers(1)
      return fault('lost answer')
    case 2:
      control.faults.failNext(3, 503)
      return fault('503s')
    case 3:
      control.expireTokens('demo')
      return fault('expired tokens')
    case 4: {
      // An instance's SSH server restarts (never an idle-rule one: it would break the streak; never a terminal mid-flood).
      const candidates = lives.filter((live) => live.plan.restartable && running(live) && !flooding(live))
      const target = candidates[restartTurn++ % Math.max(1, candidates.length)]
      if (!target?.instanceId) return
      const id = target.instanceId
      control.setStatus(id, 'Starting')
      fault('SSH server restart')
      // Back 30 s later (emulated).
      clock.setTimeout(() => {
        if (statusOf(id) === 'Starting') control.setStatus(id, 'Running')
      }, 30_000)
    }
  }
}

async function restartCore(): Promise<void> {
  window.detach()
  requestsBefore += emu().control.requestCount()
  await core.stop()
  // Its terminals went with it (known_hosts and remembered tunnels stay).
  for (const live of lives) live.terminalId = undefined
  core = buildCore()
  window.attach(core)
  await core.start()
  restartsDone++
  // A remembered session whose token expired meanwhile asks for the password again: the user gives it.
  const session = await core.handle('session.get', undefined, client)
  if (session.ok && session.value.status !== 'signed-in') {
    const again = await core.handle('session.login', { profileId: 'sandbox', username: 'demo', password, rememberMe: true }, client)
    if (!again.ok) problems.push(`signing in after the restart failed: ${again.error.message}`)
  }
}

/** Everything the scenario does at this moment of the day. */
async function act(): Promise<void> {
  const at = elapsed()
  const control = emu().control
  // What the core has seen (a terminal opens once the window's list says Running).
  const listed = await core.handle('instances.get', undefined, client)
  const coreStatus = new Map(
    (listed.ok ? listed.value.instances : []).map((instance) => [instance.instanceMetadata.instanceId, instance.instanceRuntimeInfo.status])
  )
  for (const live of lives) {
    const { plan } = live
    // Created when planned, through the core (lost answers and expiries included).
    if (live.instanceId === undefined && live.createFailed === undefined && at >= plan.createAtMin * MIN) {
      const created = await core.handle('instances.create', { request: createRequest(emu(), plan.name) }, client)
      if (created.ok) live.instanceId = created.value.instanceId
      else live.createFailed = created.error.message
    }
    if (!live.instanceId) continue
    const instance = control.instances('demo').find((i) => i.instanceMetadata.instanceId === live.instanceId)
    if (!instance) continue
    // The user trusted its host key (in a terminal, once).
    if (plan.trusted && live.trustedPort === undefined && instance.instanceRuntimeInfo.status === 'Running') {
      const target = sshTarget(instance)
      const [keyType, keyBase64] = reach!.sshHostPublicKey!.split(' ')
      await appendFile(join(dataDir, 'known_hosts'), `[${target.host}]:${target.port} ${keyType} ${keyBase64}\n`, { mode: 0o600 })
      live.trustedPort = target.port
    }
    if (!live.rulesSet) await setRules(live)
    if (plan.role === 'hostile' && running(live)) await keepHostile(live.instanceId)
    if (plan.role === 'busy' && running(live) && control.gpus(live.instanceId)[0]?.utilization !== 90)
      await control.setGpu(live.instanceId, { utilization: 90 })
    if (plan.role === 'terminal' && live.trustedPort !== undefined && !live.terminalId && coreStatus.get(live.instanceId) === 'Running') {
      const opened = await core.handle('ssh.open', { instanceId: live.instanceId, ...TERMINAL_SIZE }, client)
      if (opened.ok) live.terminalId = opened.value.terminalId
      else problems.push(`terminal on ${plan.name}: ${opened.error.message}`)
    }
    if (plan.tunnel && live.trustedPort !== undefined && live.tunnelPort === undefined && running(live)) {
      const started = await core.handle('tunnels.start', { instanceId: live.instanceId, remotePort: 8888 }, client)
      if (started.ok) live.tunnelPort = started.value.localPort
    }
    if (plan.userStopAfterMin !== undefined && !live.userStopped && live.runStartedAt !== undefined) {
      if (clock.now() >= live.runStartedAt + plan.userStopAfterMin * MIN) {
        live.userStopped = true
        const stopped = await core.handle('instances.stop', { instanceId: live.instanceId }, client)
        if (!stopped.ok) problems.push(`stopping ${plan.name} by hand: ${stopped.error.message}`)
      }
    }
  }
  if (at >= nextFaultAt) {
    nextFaultAt += FAULT_EVERY_MS
    await injectFault()
  }
  if (at >= nextFloodAt) {
    nextFloodAt += FLOOD_EVERY_MS
    floodRound++
    for (const live of lives) {
      // A flood goes to a shell that is there (and not into a restart of the app).
      // (Nor into the stop its rule has due: a flood takes seconds of real time, minutes of emulated time.)
      const stopsAt =
        live.runStartedAt !== undefined && live.plan.rules.stopAfterHours !== null
          ? live.runStartedAt + live.plan.rules.stopAfterHours * HOUR
          : Infinity
      if (!live.terminalId || !running(live) || stopsAt - clock.now() < HOUR || window.terminals.get(live.terminalId) !== 'connected')
        continue
      core.notice('ssh.input', { terminalId: live.terminalId, data: FLOOD(floodRound, live.plan.index) }, client)
      floodsSent.push(`${floodRound}-${live.plan.index}`)
    }
  }
  if (at >= nextTunnelAt) {
    nextTunnelAt += TUNNEL_EVERY_MS
    for (const live of lives) if (live.tunnelPort !== undefined && running(live)) useTunnel(live.tunnelPort)
  }
  // (A restart waits for the floods on their way: the app's Quit would end them.)
  if (restartsDone < RESTARTS_AT.length && at >= RESTARTS_AT[restartsDone]! && !lives.some(flooding)) await restartCore()
  if (!heapAfterWarmUp && at >= WARM_UP_MS) heapAfterWarmUp = measure()
  if (heapAfterWarmUp && at >= nextHeapAt) {
    nextHeapAt += HOUR
    const now = measure()
    hourly.push(now)
    if (now.heap > heapPeak.heap) heapPeak.heap = now.heap
    if (now.rss > heapPeak.rss) heapPeak.rss = now.rss
  }
}

/** A request through the tunnel, not waited for here (a reconnecting tunnel holds it until the link is back). */
function useTunnel(port: number): void {
  const request = Promise.race([
    httpText(port).then((page) => page.includes('Jupyter on')),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000))
  ]).then(
    (ok) => void (ok ? tunnel.ok++ : tunnel.failed++),
    () => void tunnel.failed++
  )
  tunnel.pending.add(request)
  void request.finally(() => tunnel.pending.delete(request))
}

async function keepHostile(instanceId: string): Promise<void> {
  // Its endpoints start again after each restart and write the honest script back: put ours again.
  const script = join(dataDir, 'sandbox', REACH_FOLDER, 'bin', safeFolderName(instanceId), 'nvidia-smi')
  if (existsSync(script) && readFileSync(script, 'utf8') !== HOSTILE_NVIDIA_SMI)
    await writeFile(script, HOSTILE_NVIDIA_SMI, { mode: 0o755 })
}

async function setRules(live: Live): Promise<void> {
  const entry = stepCost?.instances.find((item) => item.instanceId === live.instanceId)
  if (!entry) return
  live.runStartedAt ??= entry.meter.runStartedAt
  const rules = { ...live.plan.rules }
  if (live.plan.role === 'stop-at') {
    const at = localTimeAfter(clock.now(), live.plan.index % 2 === 0 ? 120 : 180)
    rules.stopAtTime = at.text
    live.stopAtTime = at.at
  }
  const set = await core.handle('cost.setRules', { instanceId: live.instanceId, rules }, client)
  if (set.ok) live.rulesSet = true
}

/** What happened this step: stops (from the emulator), reminders and automatic stops (notifications), first readings. */
async function observe(): Promise<void> {
  for (const live of lives) {
    if (!live.instanceId || live.stoppedAt !== undefined) continue
    const status = statusOf(live.instanceId)
    if (status === 'Stopping' || status === 'Stopped') live.stoppedAt = clock.now()
  }
  for (const notification of notifications.slice(seenNotifications)) {
    const live = lives.find((item) => item.instanceId === notification.instanceId)
    if (!live) continue
    if (notification.kind === 'reminder') live.remindedAt ??= clock.now()
    // The rule that acted says itself in the countdown (the stop's own notice is not sent when its answer was lost).
    if (notification.kind === 'countdown' && / stops in /.test(notification.title)) live.autoStopBody ??= notification.body
  }
  seenNotifications = notifications.length
  const snapshot = (stepCost = await costNow())
  for (const entry of snapshot?.instances ?? []) {
    const live = lives.find((item) => item.instanceId === entry.instanceId)
    if (!live || live.firstReadingAt !== undefined || entry.gpu.state === 'off') continue
    const first = entry.gpu.history.find((point) => !point.missed && point.busiest !== null)
    if (first) live.firstReadingAt = first.at
  }
}

// ---------------------------------------------------------------- the day

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
const spent = { act: 0, advance: 0, quiet: 0, observe: 0, pace: 0 }
const timed = async (key: keyof typeof spent, work: () => Promise<void>): Promise<void> => {
  const from = performance.now()
  await work()
  spent[key] += performance.now() - from
}
while (elapsed() < DAY_MS) {
  const stepStarted = Date.now()
  await timed('act', act)
  await timed('advance', () => clock.manual.advanceAsync(STEP_MS, settle))
  await timed('quiet', quiet)
  await timed('observe', observe)
  // While a terminal flood or signing in again is on its way, real I/O gets real time: emulated
  // time runs no faster than STEP_MS per STEP_REAL_MS, so seconds of it are minutes of the day.
  const busy = window.relogging || floodsSent.some((flood) => !window.markers.has(flood))
  const rest = stepStarted + (busy ? STEP_REAL_MS : STEP_IDLE_REAL_MS) - Date.now()
  if (rest > 0) await timed('pace', () => new Promise((resolve) => setTimeout(resolve, rest)))
}
if (process.env['SOAK_PROFILE']) {
  console.log(JSON.stringify({ ...spent, waitedOut }))
  console.log(`hourly heap MiB: ${hourly.map((m) => (m.heap / 1024 / 1024).toFixed(1)).join(' ')}`)
  console.log(`hourly rss MiB: ${hourly.map((m) => (m.rss / 1024 / 1024).toFixed(0)).join(' ')}`)
}
// Floods and tunnel requests still on their way get a moment (real time).
for (const deadline = Date.now() + 20_000; Date.now() < deadline && floodsSent.some((flood) => !window.markers.has(flood));)
  await new Promise((resolve) => setTimeout(resolve, 50))
await Promise.all([...tunnel.pending])
const heapAtEnd = measure()
/** For a rule that missed: what the guard and the desktop said about its instance. */
const finalCost = await costNow()
const evidence = (live: Live): string => {
  const entry = finalCost?.instances.find((item) => item.instanceId === live.instanceId)
  const said = notifications.filter((n) => n.instanceId === live.instanceId).map((n) => `${n.kind}: ${n.title}`)
  return JSON.stringify({
    status: live.instanceId && statusOf(live.instanceId),
    guard: entry && { rules: entry.ruleWords, countdown: entry.countdown, gpu: entry.gpu.state },
    said
  })
}
const requests = requestsBefore + emu().control.requestCount()
const names = new Map<string, number>()
for (const instance of emu().control.instances('demo'))
  names.set(instance.instanceSpecInfo.name, (names.get(instance.instanceSpecInfo.name) ?? 0) + 1)
const duplicates = [...names.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0)
window.detach()
await core.stop()
await rm(dataDir, { recursive: true, force: true })

// ---------------------------------------------------------------- the report

interface Row {
  what: string
  result: string
  ok: boolean
  evidence?: string
}
const rows: Row[] = []
const row = (what: string, result: string, ok: boolean, evidence?: string): void =>
  void rows.push({ what, result, ok, ...(evidence ? { evidence } : {}) })
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
const growth = (from: number, to: number): number => (to - from) / from

row(
  'emulated time',
  `${(DAY_MS / HOUR).toFixed(0)} h in ${((Date.now() - startedReal) / 1000).toFixed(0)} s real`,
  Date.now() - startedReal <= REAL_BUDGET_MS
)
row('API requests', String(requests), requests > 0)
row('faults injected', [...faults.kinds].map(([kind, count]) => `${count} ${kind}`).join(', '), faults.injected > 0)
row('core restarts', String(restartsDone), restartsDone === RESTARTS_AT.length)
row('crashes (uncaught / unhandled)', String(crashes.length), crashes.length === 0)
row('duplicate creates', String(duplicates), duplicates === 0)
const createFailures = lives.filter((live) => live.createFailed)
row('creates', `${lives.length - createFailures.length} of ${lives.length}`, createFailures.length === 0)
row('events a window could not take', String(window.lost), window.lost === 0)
row(
  'largest event (JSON)',
  `${window.largestEvent.event} ${(window.largestEvent.bytes / 1024).toFixed(1)} KiB`,
  window.largestEvent.bytes < 256 * 1024
)
row('session expiries answered', String(window.expiries), window.expiries > 0)
row('parts shown unhealthy', window.unhealthy.size === 0 ? '0' : [...window.unhealthy].join(' | '), window.unhealthy.size === 0)
const floodsDone = floodsSent.filter((flood) => window.markers.has(flood)).length
row(
  'terminal floods through',
  `${floodsDone} of ${floodsSent.length} (${mib(window.terminalBytes)})`,
  floodsSent.length > 0 && floodsDone === floodsSent.length
)
row(
  'tunnel requests answered',
  `${tunnel.ok} of ${tunnel.ok + tunnel.failed}`,
  tunnel.ok > 0 && tunnel.failed <= faults.kinds.get('SSH server restart')!
)
const start = heapAfterWarmUp ?? heapAtEnd
const heapGrowth = growth(start.heap, heapAtEnd.heap)
const rssGrowth = growth(start.rss, heapAtEnd.rss)
row(
  'heap after warm-up → end',
  `${mib(start.heap)} → ${mib(heapAtEnd.heap)} (${(heapGrowth * 100).toFixed(1)} %; hourly peak ${mib(heapPeak.heap)})`,
  heapGrowth <= HEAP_GROWTH_TARGET
)
row(
  'RSS after warm-up → end',
  `${mib(start.rss)} → ${mib(heapAtEnd.rss)} (${(rssGrowth * 100).toFixed(1)} %; hourly peak ${mib(heapPeak.rss)})`,
  rssGrowth <= HEAP_GROWTH_TARGET
)
row('problems met', problems.length === 0 ? 'none' : problems.slice(0, 5).join(' | '), problems.length === 0)

/** Each rule: when it was due, when it acted, and whether that was when due. */
const countdown = COUNTDOWN_MINUTES * MIN
const within = (acted: number | undefined, due: number): boolean => acted !== undefined && acted >= due - STEP_MS && acted <= due + LATE_MS
const minutes = (ms: number | undefined): string => (ms === undefined ? 'never' : `${((ms - dayStart) / MIN).toFixed(1)} min`)
for (const live of lives) {
  const { plan } = live
  const hours = plan.rules.stopAfterHours
  const start = live.runStartedAt
  let due: number | undefined
  let acted = live.stoppedAt
  let what: string
  let ok: boolean
  switch (plan.role) {
    case 'idle':
      due = live.firstReadingAt !== undefined ? live.firstReadingAt + (plan.rules.idle?.forMinutes ?? 0) * MIN + countdown : undefined
      what = `idle ${plan.rules.idle?.forMinutes} min`
      ok = due !== undefined && within(acted, due) && /idle/.test(live.autoStopBody ?? '')
      break
    case 'stop-at':
      due = live.stopAtTime !== undefined ? live.stopAtTime + countdown : undefined
      what = 'stop at a time'
      ok = due !== undefined && within(acted, due)
      break
    case 'reminder':
      due = start !== undefined ? start + (plan.rules.remindAfterHours ?? 0) * HOUR : undefined
      acted = live.remindedAt
      what = `reminder after ${plan.rules.remindAfterHours} h`
      ok = due !== undefined && within(acted, due)
      break
    case 'user-stop':
      due = start !== undefined ? start + (plan.userStopAfterMin ?? 0) * MIN : undefined
      what = 'stopped by hand'
      ok = due !== undefined && within(acted, due)
      break
    default:
      // stop-after (terminal, hostile, busy, stop-after): never the idle rule, even with it on.
      due = start !== undefined && hours !== null ? start + hours * HOUR + countdown : undefined
      what = `${plan.role === 'stop-after' ? '' : `${plan.role}: `}stop after ${hours} h${plan.rules.idle ? ' (idle rule on: must not act)' : ''}`
      ok = due !== undefined && within(acted, due) && !/idle/.test(live.autoStopBody ?? '')
  }
  // Not due within the run (a short run): right only if it has not acted either.
  if (due !== undefined && due > dayStart + DAY_MS) ok = acted === undefined || acted >= due - STEP_MS
  if (live.instanceId === undefined && live.createFailed === undefined && plan.createAtMin * MIN >= DAY_MS) ok = true
  row(`rule: ${plan.name} ${what}`, `due ${minutes(due)}, acted ${minutes(acted)}`, ok, ok ? undefined : evidence(live))
}

const width = rows.reduce((most, entry) => Math.max(most, entry.what.length), 0)
console.log(`\nsoak: ${days} emulated day${days === 1 ? '' : 's'} of the core against the Sandbox (${lives.length} instances)\n`)
for (const entry of rows) console.log(`${entry.ok ? 'ok  ' : 'MISS'}  ${entry.what.padEnd(width)}  ${entry.result}`)
for (const entry of rows) if (!entry.ok && entry.evidence) console.log(`\n${entry.what}: ${entry.evidence}`)
for (const crash of crashes.slice(0, 3)) console.error(`\n${crash}`)
const missed = rows.filter((entry) => !entry.ok)
console.log(missed.length === 0 ? '\nPASS' : `\nFAIL: ${missed.length} missed`)
process.exit(missed.length === 0 ? 0 : 1)
