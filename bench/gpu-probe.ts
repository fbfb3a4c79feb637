/**
 * What watching GPUs costs over SSH (#16): 10 running Sandbox instances probed once a minute for
 * one emulated hour through the app's core (the cost guard's probes on the shared SSH links'
 * exec), against a reference measured in the same run: one fresh SSH connection (handshake,
 * login, one exec) per probe, the way a script calling `ssh host nvidia-smi …` would.
 *
 * The emulator's SSH servers count logins and exec channels per instance (GET
 * /__emulator/ssh-stats). Prints both per instance per hour, the ratio of connections (target
 * ≤ 0.05), and the CPU time of this process for the app's hour: main's core, plus the emulator's
 * in-process SSH servers answering it and this script's own clock stepping (so an upper bound for
 * main; the shells the servers spawn for each nvidia-smi are separate processes, though spawning
 * them is counted here). The reference hour's CPU is printed beside it for scale.
 *
 * Run: npx tsx bench/gpu-probe.ts   (exits non-zero when the target is missed or probes failed)
 */
import './plays-main'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ssh2 from 'ssh2'
import { ManualClock } from '../src/shared/clock'
import type { CostSnapshot } from '../src/shared/contract-cost'
import { startEmulator, type Emulator } from '../src/emulator/index'
import { generateEd25519KeyPair } from '../src/emulator/reach/host-key'
import { createReach, type EmulatorReach } from '../src/emulator/reach/index'
import type { ReachContext } from '../src/emulator/reach-types'
import { createMemoryKeychain } from '../src/main/account/keychain'
import { createAppCore } from '../src/main/core'
import { GPU_QUERY, parseGpuQuery } from '../src/main/cost/gpu-probe'
import { PROBE_PERIOD_MS } from '../src/main/cost/idle'
import { probeClock } from '../src/main/cost/testing/probe-clock'
import { sshTarget } from '../src/main/ssh/target'
import { recordingPlatform } from '../src/main/testing/core-harness'

const INSTANCES = 10
const HOUR_MS = 60 * 60_000
const RATIO_TARGET = 0.05
const client = { clientId: 'bench' }

type Stats = Record<string, { connections: number; execs: number }>

function perInstanceHour(stats: Stats, ids: readonly string[]): { connections: number; execs: number } {
  const sum = (key: 'connections' | 'execs'): number => ids.reduce((total, id) => total + (stats[id]?.[key] ?? 0), 0)
  return { connections: sum('connections') / ids.length, execs: sum('execs') / ids.length }
}

/** The app's hour: the core probes 10 instances; what their SSH servers saw, and this process's CPU. */
async function appHour(): Promise<{ stats: Stats; ids: string[]; cpuMs: number; samples: number; missed: number }> {
  const clock = new ManualClock(Date.now())
  const dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-bench-gpu-'))
  let emulator: Emulator | undefined
  let reach: EmulatorReach | undefined
  const makeReach = createReach()
  const core = createAppCore({
    dataDir,
    platform: recordingPlatform(),
    keychain: createMemoryKeychain(),
    version: '0.0.0-bench',
    clock,
    random: () => 0.5,
    reach: async (context: ReachContext) => (reach = await makeReach(context)),
    startEmulator: async (sandbox) => (emulator = await startEmulator({ bootMs: 1_000, stopMs: 500, ...sandbox, clock }))
  })
  try {
    await core.start()
    const profiles = await core.handle('profiles.get', undefined, client)
    const password = (profiles.ok && profiles.value.demoPassword) || ''
    const login = await core.handle('session.login', { profileId: 'sandbox', username: 'demo', password, rememberMe: false }, client)
    if (!login.ok) throw new Error(login.error.message)
    const ids = await emulator!.control.seedInstances('demo', INSTANCES)
    // The user trusted each instance's host key once (in a terminal): the app's known_hosts has them.
    const [keyType, keyBase64] = reach!.sshHostPublicKey!.split(' ')
    const lines = emulator!.control.instances('demo').map((instance) => {
      const target = sshTarget(instance)
      return `[${target.host}]:${target.port} ${keyType} ${keyBase64}\n`
    })
    await writeFile(join(dataDir, 'known_hosts'), lines.join(''), { mode: 0o600 })
    const listed = await core.handle('instances.refresh', undefined, client)
    if (!listed.ok) throw new Error(listed.error.message)

    const cost = async (): Promise<CostSnapshot | undefined> => {
      const answer = await core.handle('cost.get', undefined, client)
      return answer.ok ? answer.value : undefined
    }
    const pass = probeClock(clock, { cost, stepMs: 2_000 })
    const cpu = process.cpuUsage()
    await pass(HOUR_MS)
    const used = process.cpuUsage(cpu)
    const snapshot = await cost()
    // The cost snapshot carries one point per probe for the last hour (GPU_HISTORY_POINTS at most).
    const points = (snapshot?.instances ?? []).flatMap((entry) => (entry.gpu.state === 'off' ? [] : entry.gpu.history))
    return {
      stats: emulator!.control.sshStats(),
      ids,
      cpuMs: (used.user + used.system) / 1000,
      samples: points.filter((point) => !point.missed).length,
      missed: points.filter((point) => point.missed).length
    }
  } finally {
    await core.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** One probe the reference way: a new connection, a login, one exec, the end. */
function freshProbe(host: string, port: number, username: string, privateKey: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ssh = new ssh2.Client()
    ssh.on('error', reject)
    ssh.on('ready', () => {
      ssh.exec(GPU_QUERY, (error, channel) => {
        if (error) return reject(error)
        let stdout = ''
        channel.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
        channel.stderr.resume()
        channel.on('close', () => {
          ssh.end()
          if (parseGpuQuery(stdout).ok) resolve()
          else reject(new Error(`not the query's answer: ${stdout.slice(0, 200)}`))
        })
      })
    })
    // The emulator's host key is the one its reach reported; this run checks nothing else.
    ssh.connect({ host, port, username, privateKey, hostVerifier: () => true, readyTimeout: 20_000 })
  })
}

/** The reference hour: the same 10 instances, a fresh connection for each probe, once a minute. */
async function referenceHour(): Promise<{ stats: Stats; ids: string[]; cpuMs: number }> {
  const clock = new ManualClock(Date.now())
  const emulator = await startEmulator({ bootMs: 1_000, clock, reach: createReach() })
  try {
    const keys = generateEd25519KeyPair('gpu-probe-bench')
    emulator.control.registerSshKey('demo', keys.public)
    const ids = await emulator.control.seedInstances('demo', INSTANCES)
    const targets = emulator.control.instances('demo').map((instance) => sshTarget(instance))
    const cpu = process.cpuUsage()
    for (let minute = 0; minute < HOUR_MS / PROBE_PERIOD_MS; minute++) {
      await Promise.all(targets.map((target) => freshProbe(target.host, target.port, target.username, keys.private)))
      await clock.advanceAsync(PROBE_PERIOD_MS)
    }
    const used = process.cpuUsage(cpu)
    return { stats: emulator.control.sshStats(), ids, cpuMs: (used.user + used.system) / 1000 }
  } finally {
    await emulator.close()
  }
}

const app = await appHour()
const reference = await referenceHour()
const ours = perInstanceHour(app.stats, app.ids)
const theirs = perInstanceHour(reference.stats, reference.ids)
const ratio = ours.connections / theirs.connections
const expectedSamples = INSTANCES * (HOUR_MS / PROBE_PERIOD_MS)

console.log(`${INSTANCES} running instances, one emulated hour, a probe a minute each`)
console.log(
  `  app (shared links' exec): ${ours.connections.toFixed(2)} SSH connections and ${ours.execs.toFixed(1)} exec channels per instance per hour`
)
console.log(
  `  reference (fresh connection per probe): ${theirs.connections.toFixed(2)} connections and ${theirs.execs.toFixed(1)} exec channels per instance per hour`
)
console.log(`  connections ratio: ${ratio.toFixed(4)} (target ≤ ${RATIO_TARGET})`)
console.log(`  readings: ${app.samples} of about ${expectedSamples} (missed: ${app.missed})`)
console.log(
  `  CPU time of this process for the app's hour: ${(app.cpuMs / 1000).toFixed(2)} s (main's core + the emulator's SSH servers); reference hour: ${(reference.cpuMs / 1000).toFixed(2)} s`
)

const enoughReadings = app.missed === 0 && app.samples >= expectedSamples - INSTANCES
if (!enoughReadings) console.error('FAIL: probes did not read the GPUs every minute')
if (!(ratio <= RATIO_TARGET)) console.error(`FAIL: connections ratio ${ratio.toFixed(4)} > ${RATIO_TARGET}`)
process.exit(enoughReadings && ratio <= RATIO_TARGET ? 0 : 1)
