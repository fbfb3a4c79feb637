/**
 * What an idle tray costs: the main-process core watching 20 Running instances, signed in, with
 * no window open, against a plain Node process that does nothing but one 30 s interval (the
 * reference: what any resident Node process costs here). Each runs in a child process of its
 * own, one after the other, for the same time; the emulator (the cloud) runs in this process, so
 * its CPU is not counted against the core.
 *
 * Measured in each child, over the same stretch of real time after a warm-up (sign-in, first
 * polls, catalog, balance):
 * - CPU time (user + system) as a share of one core. Target for the core: ≤ 0.5 %.
 * - Timer wake-ups per minute: timer callbacks run (setTimeout/setInterval wrapped before the
 *   app loads), and the main thread's voluntary context switches (every time its event loop
 *   slept and woke for any reason: timers, sockets, the thread pool), reported.
 *
 * The issue asks for 10 minutes; on this shared 2-core machine the default is 90 s each
 * (`--seconds 600` for the full run). The watcher's steady poll is 30 s or more, so 90 s still
 * holds several polls, balance reads and keepalives.
 *
 *   npx tsx bench/idle.ts [--seconds 90]
 */
import './plays-main'
import { spawn } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const TARGET_CPU_SHARE = 0.005
const INSTANCES = 20
const WARM_UP_MS = 8_000

interface Measured {
  cpuMs: number
  wallMs: number
  timerCallbacks: number
  /** Timer callbacks run, by the delay they were set with (ms). */
  byDelay: Record<string, number>
  contextSwitches: number
}

/** Voluntary context switches of this process's main thread (Linux; 0 where /proc is absent). */
function mainThreadSwitches(): number {
  try {
    const status = readFileSync(`/proc/self/task/${process.pid}/status`, 'utf8')
    return Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0)
  } catch {
    return 0
  }
}

/** Threads of this process now (for the report: libuv's pool, V8's helpers). */
function threadCount(): number {
  try {
    return readdirSync('/proc/self/task').length
  } catch {
    return 0
  }
}

/** Counts every timer callback this process runs from now on, and by the delay it was set with. */
function countTimers(): { calls: () => number; byDelay: Map<number, number> } {
  let calls = 0
  const byDelay = new Map<number, number>()
  const wrap = <F extends (callback: (...args: unknown[]) => void, ...rest: unknown[]) => unknown>(original: F): F =>
    ((callback: (...args: unknown[]) => void, ...rest: unknown[]) =>
      original(
        (...args: unknown[]) => {
          calls++
          const delay = Math.round(Number(rest[0] ?? 0))
          byDelay.set(delay, (byDelay.get(delay) ?? 0) + 1)
          callback(...args)
        },
        ...rest
      )) as F
  globalThis.setTimeout = Object.assign(wrap(globalThis.setTimeout as never), globalThis.setTimeout)
  globalThis.setInterval = Object.assign(wrap(globalThis.setInterval as never), globalThis.setInterval)
  return { calls: () => calls, byDelay }
}

async function measure(seconds: number, settle: () => Promise<void>, timers: ReturnType<typeof countTimers>): Promise<Measured> {
  await settle()
  const cpu = process.cpuUsage()
  const started = performance.now()
  const callsBefore = timers.calls()
  timers.byDelay.clear()
  const switchesBefore = mainThreadSwitches()
  // The measuring process's own timer: counted out below.
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  const used = process.cpuUsage(cpu)
  return {
    cpuMs: (used.user + used.system) / 1000,
    wallMs: performance.now() - started,
    timerCallbacks: timers.calls() - callsBefore - 1,
    // Less the measuring timer itself.
    byDelay: Object.fromEntries(
      [...timers.byDelay]
        .map(([delay, count]): [number, number] => [delay, delay === seconds * 1000 ? count - 1 : count])
        .filter(([, count]) => count > 0)
    ),
    contextSwitches: mainThreadSwitches() - switchesBefore
  }
}

/** The child that runs the core: signed in to the emulator at `baseUrl`, no window. */
async function coreChild(baseUrl: string, seconds: number): Promise<Measured & { threads: number }> {
  const timers = countTimers()
  const { createAppCore } = await import('../src/main/core')
  const { createMemoryKeychain } = await import('../src/main/account/keychain')
  const { recordingPlatform } = await import('../src/main/testing/core-harness')
  const { systemClock } = await import('../src/shared/clock')
  const dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-idle-'))
  const core = createAppCore({
    dataDir,
    platform: recordingPlatform(),
    keychain: createMemoryKeychain(),
    clock: systemClock(),
    version: '0.0.0-bench',
    baseUrlOverride: baseUrl
  })
  try {
    await core.start()
    const client = { clientId: 'bench-idle' }
    const login = await core.handle(
      'session.login',
      { profileId: 'sandbox', username: 'demo', password: 'demo', rememberMe: false },
      client
    )
    if (!login.ok) throw new Error(`login failed: ${login.error.message}`)
    // The window that signed in closes: the tray alone is left.
    core.clientGone(client.clientId)
    const listed = await core.handle('instances.refresh', undefined, client)
    if (!listed.ok || listed.value.instances.length !== INSTANCES) throw new Error('the core does not see the 20 instances')
    const result = await measure(seconds, () => new Promise((resolve) => setTimeout(resolve, WARM_UP_MS)), timers)
    return { ...result, threads: threadCount() }
  } finally {
    await core.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** The reference child: a plain Node process with one 30 s interval. */
async function referenceChild(seconds: number): Promise<Measured & { threads: number }> {
  const timers = countTimers()
  const interval = setInterval(() => {}, 30_000)
  try {
    const result = await measure(seconds, () => new Promise((resolve) => setTimeout(resolve, WARM_UP_MS)), timers)
    return { ...result, threads: threadCount() }
  } finally {
    clearInterval(interval)
  }
}

/** Runs a child (asynchronously: the emulator in this process must keep answering it). */
async function runChild(role: 'core' | 'reference', seconds: number, baseUrl = ''): Promise<Measured & { threads: number }> {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--role', role, '--seconds', String(seconds), '--base-url', baseUrl]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve))
  const line = stdout.split('\n').find((text) => text.startsWith('IDLE '))
  if (status !== 0 || !line) throw new Error(`the ${role} child failed (status ${String(status)}): ${stdout}`)
  return JSON.parse(line.slice(5)) as Measured & { threads: number }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { role: { type: 'string' }, seconds: { type: 'string', default: '90' }, 'base-url': { type: 'string' } }
  })
  const seconds = Math.max(10, Math.min(3_600, Number(values.seconds) || 90))
  if (values.role === 'core' || values.role === 'reference') {
    const result = values.role === 'core' ? await coreChild(values['base-url'] ?? '', seconds) : await referenceChild(seconds)
    console.log(`IDLE ${JSON.stringify(result)}`)
    return 0
  }

  const { startEmulator } = await import('../src/emulator/index')
  const emulator = await startEmulator({ port: 0, bootMs: 0 })
  try {
    await emulator.control.seedInstances('demo', INSTANCES)
    // One after the other: never two measurements at once on a 2-core machine.
    const reference = await runChild('reference', seconds)
    const core = await runChild('core', seconds, emulator.baseUrl)
    const share = (m: Measured): number => m.cpuMs / m.wallMs
    const perMinute = (count: number, m: Measured): number => (count * 60_000) / m.wallMs
    const line = (name: string, m: Measured & { threads: number }): string =>
      `${name} ${(share(m) * 100).toFixed(3)} % of a core (${m.cpuMs.toFixed(0)} ms CPU in ${(m.wallMs / 1000).toFixed(0)} s); ` +
      `timer wake-ups ${perMinute(m.timerCallbacks, m).toFixed(1)}/min; main thread woke ${perMinute(m.contextSwitches, m).toFixed(0)}/min; ${m.threads} threads` +
      (Object.keys(m.byDelay).length > 0
        ? `\n      timers run, by the delay they were set with: ${Object.entries(m.byDelay)
            .sort((a, b) => b[1] - a[1])
            .slice(0, 6)
            .map(([delay, count]) => `${delay} ms ×${count}`)
            .join(', ')}`
        : '')
    const ok = share(core) <= TARGET_CPU_SHARE
    console.log(
      `idle: ${INSTANCES} watched Running instances, signed in, no window; ${seconds} s each after ${WARM_UP_MS / 1000} s of warm-up`
    )
    console.log(`  reference, plain Node with one 30 s interval: ${line('', reference)}`)
    console.log(`  the core:                                     ${line('', core)}`)
    console.log(
      `  idle CPU ratio core/reference: ${(share(core) / Math.max(share(reference), 1e-6)).toFixed(1)}; ` +
        `core ${(share(core) * 100).toFixed(3)} % of a core (target ≤ ${TARGET_CPU_SHARE * 100} %) ${ok ? 'PASS' : 'FAIL'}`
    )
    return ok ? 0 : 1
  } finally {
    await emulator.close()
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
