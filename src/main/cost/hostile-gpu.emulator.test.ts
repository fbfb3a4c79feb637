/**
 * #21's first finding, replayed with the Sandbox alone: one instance's `nvidia-smi` prints
 * 200,000 lines (its own bin folder is first on PATH in its SSH sessions, and a compromised
 * workload can write there). Main stays up; the cost guard keeps acting on the other instance
 * (its idle rule stops it); the window and the tray show the hostile instance's GPU activity as
 * unavailable, never idle; and what the window is sent stays small.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import { highest } from '../../shared/extremes'
import type { EventName } from '../../shared/contract'
import { GPU_HISTORY_POINTS, type CostSnapshot } from '../../shared/contract-cost'
import { posixShellMissing, skipBecause } from '../../shared/node/testing/platform-support'
import { startEmulator, type Emulator } from '../../emulator/index'
import { REACH_FOLDER, safeFolderName } from '../../emulator/reach/create-reach'
import { createReach, type EmulatorReach } from '../../emulator/reach/index'
import type { ReachContext } from '../../emulator/reach-types'
import { createMemoryKeychain } from '../account/keychain'
import { createAppCore } from '../core'
import { sshTarget } from '../ssh/target'
import { recordingPlatform } from '../testing/core-harness'
import { probeClock } from './testing/probe-clock'
import { closeAfterEach } from '../../shared/testing/close-after-each'

const client = { clientId: 'window-1' }
/** The review's script: 200,000 lines of "0,,", about 600 kB. */
const FLOOD = `#!/bin/sh\nawk 'BEGIN { for (i = 0; i < 200000; i++) print "0,," }'\n`

const teardown = closeAfterEach()

describe.skipIf(skipBecause(posixShellMissing(), 'nvidia-smi in the emulator’s shell'))('a hostile instance’s nvidia-smi', () => {
  it('200,000 lines: main stays up, the other instance’s rule acts, the hostile one is unavailable (never idle), the window’s events stay small', async () => {
    const clock = new ManualClock(Date.now())
    let emulator: Emulator | undefined
    let reach: EmulatorReach | undefined
    const makeReach = createReach()
    const costEvents: number[] = []
    const dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-hostile-gpu-'))
    teardown.defer(() => rm(dataDir, { recursive: true, force: true }))
    const platform = recordingPlatform()
    const core = createAppCore({
      dataDir,
      platform,
      keychain: createMemoryKeychain(),
      version: '0.0.0-test',
      clock,
      random: () => 0.5,
      reach: async (context: ReachContext) => (reach = await makeReach(context)),
      startEmulator: async (sandbox) => (emulator = await startEmulator({ bootMs: 1_000, stopMs: 500, ...sandbox, clock }))
    })
    teardown.defer(() => core.stop())
    // The window: it gets every cost event as JSON, as the web shell's transport sends it.
    core.subscribe((event: EventName, payload: unknown) => {
      if (event === 'cost') costEvents.push(JSON.stringify(payload).length)
    })
    await core.start()
    const call = core.handle.bind(core)
    const profiles = await call('profiles.get', undefined, client)
    const password = (profiles.ok && profiles.value.demoPassword) || ''
    expect((await call('session.login', { profileId: 'sandbox', username: 'demo', password, rememberMe: false }, client)).ok).toBe(true)
    // Every new instance gets the idle rule: 2 minutes under 5 %, then a 1-minute countdown.
    const rules = {
      remindAfterHours: null,
      stopAfterHours: null,
      stopAtTime: null,
      idle: { belowPercent: 5, forMinutes: 2 },
      warnBeforePlanEnd: false
    }
    expect((await call('settings.update', { costGuard: { defaults: rules, countdownMinutes: 1 } }, client)).ok).toBe(true)

    const [hostile, quiet] = (await emulator!.control.seedInstances('demo', 2)) as [string, string]
    // The user trusted both host keys once (in a terminal): the app's known_hosts has them.
    const [keyType, keyBase64] = reach!.sshHostPublicKey!.split(' ')
    const known = emulator!.control.instances('demo').map((instance) => {
      const target = sshTarget(instance)
      return `[${target.host}]:${target.port} ${keyType} ${keyBase64}\n`
    })
    await writeFile(join(dataDir, 'known_hosts'), known.join(''), { mode: 0o600 })
    // A workload on the hostile instance replaces nvidia-smi (first on its PATH).
    const script = join(dataDir, 'sandbox', REACH_FOLDER, 'bin', safeFolderName(hostile), 'nvidia-smi')
    // (It exists: the seed is answered once the instances' SSH servers, and their bin folders, are up.)
    await writeFile(script, FLOOD, { mode: 0o755 })
    expect((await call('instances.refresh', undefined, client)).ok).toBe(true)

    const cost = async (): Promise<CostSnapshot | undefined> => {
      const answer = await call('cost.get', undefined, client)
      return answer.ok ? answer.value : undefined
    }
    const pass = probeClock(clock, { cost, stepMs: 5_000 })
    const status = (id: string): string | undefined =>
      emulator!.control.instances('demo').find((instance) => instance.instanceMetadata.instanceId === id)?.instanceRuntimeInfo.status
    for (let minute = 0; minute < 8 && !['Stopping', 'Stopped'].includes(status(quiet) ?? ''); minute++) await pass(60_000)

    // The cost guard kept acting: the quiet instance was stopped by its idle rule, and said so.
    expect(['Stopping', 'Stopped']).toContain(status(quiet))
    // (Told once the stop's answer is in: a moment after the emulator has it.)
    const told = (): boolean => platform.notifications.some((n) => n.instanceId === quiet && /stopped/i.test(n.title))
    for (const deadline = Date.now() + 10_000; !told() && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(told()).toBe(true)
    // The hostile one runs on: readings it cannot trust are never idle.
    expect(status(hostile)).toBe('Running')
    expect(platform.notifications.some((n) => n.instanceId === hostile && /stop/i.test(n.title))).toBe(false)

    // The window shows its GPU activity as unavailable, saying why.
    const snapshot = (await cost())!
    const entry = snapshot.instances.find((instance) => instance.instanceId === hostile)!
    expect(entry.gpu).toMatchObject({
      state: 'unavailable',
      reason: 'The instance sent readings we cannot use (it printed more than 16 KiB).'
    })
    expect(entry.idleBlockedBy).toBe('The instance sent readings we cannot use (it printed more than 16 KiB).')
    expect(entry.gpu.state !== 'off' && entry.gpu.history.length).toBeLessThanOrEqual(GPU_HISTORY_POINTS)
    // The tray too.
    const tray = platform.trays.at(-1)!
    const submenu = tray.items.find((item) => item.id === `instance:${hostile}`)?.submenu ?? []
    expect(submenu.find((item) => item.id === `instance:${hostile}:gpu`)?.label).toBe(
      'GPU activity unavailable: The instance sent readings we cannot use (it printed more than 16 KiB)'
    )

    // Memory stays bounded: every cost event the window got is small, whatever the instance printed.
    expect(costEvents.length).toBeGreaterThan(5)
    expect(highest(costEvents)).toBeLessThan(32 * 1024)
  }, 120_000)
})
