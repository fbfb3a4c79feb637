/**
 * GPU probes for real, against the emulator over SSH (#16's integration test): the core runs the
 * Sandbox with reach (an SSH server per instance whose shell has the emulated nvidia-smi), on one
 * ManualClock with the emulator. Before the host key is trusted the probe says why; once it is
 * (answered once, in a terminal, as a user would), utilisation set through the emulator's control
 * route reaches `cost.get` within one probe period, each probe one exec on a connection the app
 * already had, never a new login.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import type { ClientId } from '../core-types'
import type { EventName, Events } from '../../shared/contract'
import type { CostSnapshot, GpuSample, GuardInstance } from '../../shared/contract-cost'
import type { SshPrompt } from '../../shared/contract-ssh'
import { posixShellMissing, skipBecause } from '../../shared/node/testing/platform-support'
import { startEmulator, type Emulator } from '../../emulator/index'
import { createReach } from '../../emulator/reach/index'
import { createMemoryKeychain } from '../account/keychain'
import { createAppCore } from '../core'
import { createRequest, recordingPlatform } from '../testing/core-harness'
import { PROBE_PERIOD_MS } from './idle'
import { probeClock } from './testing/probe-clock'
import { closeAfterEach } from '../../shared/testing/close-after-each'

const client = { clientId: 'window-1' }
const teardown = closeAfterEach()

/** Moves the clock (see probeClock) until `probe` answers, at most `withinMs` of simulated time. */
async function within<T>(
  clock: ManualClock,
  pass: (ms: number) => Promise<void>,
  withinMs: number,
  what: string,
  probe: () => Promise<T | undefined>
): Promise<{ value: T; afterMs: number }> {
  const from = clock.now()
  for (;;) {
    const value = await probe()
    if (value !== undefined) return { value, afterMs: clock.now() - from }
    if (clock.now() - from >= withinMs) throw new Error(`${what}: not within ${withinMs / 1000} s of simulated time`)
    await pass(5_000)
  }
}

async function controlRoute(emulator: Emulator, path: string, body: unknown): Promise<unknown> {
  const answer = await fetch(`${emulator.controlUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emulator.controlSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body)
  })
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`)
  return answer.json()
}

describe.skipIf(skipBecause(posixShellMissing(), 'nvidia-smi in the emulator’s shell'))('GPU probes over SSH against the emulator', () => {
  it('utilisation set through the control route reaches the app’s model within one probe period, over a connection the app already had', async () => {
    const clock = new ManualClock(Date.now())
    let emulator: Emulator | undefined
    const sent: { event: EventName; payload: unknown }[] = []
    const dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-gpu-probe-'))
    teardown.defer(() => rm(dataDir, { recursive: true, force: true }))
    const core = createAppCore({
      dataDir,
      platform: recordingPlatform(),
      keychain: createMemoryKeychain(),
      version: '0.0.0-test',
      clock,
      random: () => 0.5,
      reach: createReach(),
      startEmulator: async (sandbox) => (emulator = await startEmulator({ bootMs: 1_000, stopMs: 500, ...sandbox, clock }))
    })
    teardown.defer(() => core.stop())
    core.subscribe(<E extends EventName>(event: E, payload: Events[E], _target?: ClientId) => void sent.push({ event, payload }))
    await core.start()
    const call = core.handle.bind(core)
    const profiles = await call('profiles.get', undefined, client)
    const password = (profiles.ok && profiles.value.demoPassword) || ''
    expect((await call('session.login', { profileId: 'sandbox', username: 'demo', password, rememberMe: false }, client)).ok).toBe(true)
    const created = await call('instances.create', { request: createRequest(emulator!, 'probed') }, client)
    if (!created.ok) throw new Error(created.error.message)
    const { instanceId } = created.value
    const costNow = async (): Promise<CostSnapshot | undefined> => {
      const cost = await call('cost.get', undefined, client)
      return cost.ok ? cost.value : undefined
    }
    const guarded = async (): Promise<GuardInstance | undefined> =>
      (await costNow())?.instances.find((entry) => entry.instanceId === instanceId)
    const pass = probeClock(clock, { cost: costNow, stepMs: 5_000 })

    // Running, but its host key is not trusted yet: the probe never asks, it says why.
    // (A probe before the instance's SSH server listens says it could not reach it, and tries again a minute later.)
    const untrusted = await within(clock, pass, 3 * 60_000, 'the reason the GPUs cannot be read', async () => {
      const gpu = (await guarded())?.gpu
      return gpu?.state === 'unavailable' && /host key/.test(gpu.reason) ? gpu.reason : undefined
    })
    expect(untrusted.value).toMatch(/is not trusted yet\. Open a terminal to the instance once/)
    expect(sent.some((item) => item.event === 'ssh.prompt')).toBe(false)

    // The user opens a terminal once and trusts the key; the GPUs are read over that connection at
    // once, not at the probe's next turn ten minutes later (#24).
    const opened = await call('ssh.open', { instanceId, cols: 80, rows: 24 }, client)
    if (!opened.ok) throw new Error(opened.error.message)
    const prompt = (
      await within(
        clock,
        pass,
        10_000,
        'the host-key prompt',
        async () => sent.find((item) => item.event === 'ssh.prompt')?.payload as SshPrompt | undefined
      )
    ).value
    expect(
      (await call('ssh.answer', { promptId: prompt.promptId, answer: { kind: 'host-key', decision: 'accept-and-remember' } }, client)).ok
    ).toBe(true)
    // The clock stands still: only real time passes while the connection comes up and the probe answers.
    const trustedAt = clock.now()
    let idle: GpuSample | undefined
    for (let tries = 0; tries < 500 && !idle; tries++) {
      await clock.advanceAsync(0)
      const gpu = (await guarded())?.gpu
      const latest = gpu && gpu.state === 'probing' ? gpu.latest : undefined
      if (latest && latest.missed === undefined) idle = latest
      else await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(idle, 'a reading once the key is trusted, without waiting for the next probe').toBeDefined()
    expect(clock.now()).toBe(trustedAt)
    expect(idle!.gpus[0]).toMatchObject({ utilization: 0, memoryUsedMiB: 0 })

    // The terminal ends; the probes go on over the link's exec-only connection.
    expect((await call('ssh.close', { terminalId: opened.value.terminalId }, client)).ok).toBe(true)
    await pass(3 * PROBE_PERIOD_MS)
    const before = emulator!.control.sshStats()[instanceId]!

    // Set through the control route: in the app's model within one probe period.
    await controlRoute(emulator!, '/gpu', { instanceId, utilization: 73, memoryUsedMiB: 30_720 })
    const busy = await within(clock, pass, PROBE_PERIOD_MS, 'utilisation 73 %', async () => {
      const gpu = (await guarded())?.gpu
      const latest = gpu && gpu.state === 'probing' ? gpu.latest : undefined
      return latest?.gpus[0]?.utilization === 73 ? latest : undefined
    })
    expect(busy.afterMs).toBeLessThanOrEqual(PROBE_PERIOD_MS)
    expect(busy.value.gpus[0]).toMatchObject({ utilization: 73, memoryUsedMiB: 30_720 })

    // Ten more minutes: ten probes, ten commands, and not one new login.
    await pass(10 * PROBE_PERIOD_MS)
    const after = emulator!.control.sshStats()[instanceId]!
    expect(after.connections - before.connections).toBe(0)
    expect(after.execs - before.execs).toBeGreaterThanOrEqual(10)
    expect(after.execs - before.execs).toBeLessThanOrEqual(12)
  }, 120_000)
})
