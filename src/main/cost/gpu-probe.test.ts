import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import { GPU_HISTORY_POINTS, MAX_GPUS } from '../../shared/contract-cost'
import { MAX_IDLE_MINUTES } from '../../shared/guard-rules'
import {
  FIRST_PROBE_DELAY_MS,
  GPU_QUERY,
  GpuProbes,
  MAX_PROBES_AT_ONCE,
  GPU_OUTPUT_BYTES,
  NEEDS_USER_RETRY_MS,
  ProbeUnavailable,
  parseGpuQuery,
  type GpuRunner,
  type ProbeTarget
} from './gpu-probe'

const MIN = 60_000

describe('parseGpuQuery', () => {
  const gpu = (utilization: number | null, memoryUsedMiB: number | null, memoryTotalMiB: number | null) => ({
    utilization,
    memoryUsedMiB,
    memoryTotalMiB
  })
  it.each([
    ['one GPU', '87, 40960, 81920\n', [gpu(87, 40960, 81920)]],
    ['two GPUs, CRLF, a value it cannot give', '0, 0, 81559\r\n[N/A], 12, [Not Supported]\r\n', [gpu(0, 0, 81559), gpu(null, 12, null)]],
    ['a load past 100 % is no reading (not 100 %)', '140, 1, 2', [gpu(null, 1, 2)]],
    ['a negative load is no reading (not idle)', '-50, 1, 2', [gpu(null, 1, 2)]],
    ['a 400-digit number is no reading (not Infinity GiB)', `${'9'.repeat(400)}, ${'9'.repeat(400)}, 81920`, [gpu(null, null, 81920)]],
    ['negative memory is no reading', '3, -1024, 81920', [gpu(3, null, 81920)]],
    ['more memory used than there is: the used figure is no reading', '3, 90000, 81920', [gpu(3, null, 81920)]],
    ['exponents, hex and signs are no readings', '1e2, 0x10, +5', [gpu(null, null, null)]]
  ])('%s', (_name, stdout, expected) => {
    expect(parseGpuQuery(stdout)).toEqual({ ok: true, gpus: expected })
  })

  it.each([
    ['nothing', '\n', 'it listed no GPU'],
    [
      'not the query’s answer',
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.",
      'a line is not the three values asked for'
    ],
    ['a table instead of CSV', '| GPU  Name | Bus-Id |\n', 'a line is not the three values asked for'],
    ['more than MAX_GPUS lines', '0,,\n'.repeat(MAX_GPUS + 1), `it listed more than ${MAX_GPUS} GPUs`],
    ['200,000 lines (#21): refused before its size matters', '0,,\n'.repeat(200_000), 'it printed more than 16 KiB']
  ])('no answer: %s', (_name, stdout, problem) => {
    expect(parseGpuQuery(stdout)).toEqual({ ok: false, problem })
  })

  it('takes exactly MAX_GPUS lines', () => {
    const answer = parseGpuQuery('5, 1, 2\n'.repeat(MAX_GPUS))
    expect(answer.ok && answer.gpus).toHaveLength(MAX_GPUS)
  })
})

type GpuAnswerText = { stdout: string; exitCode: number | null; truncated?: boolean }

/** A runner answering from a script, recording every command run. */
function scripted(answer: (instanceId: string, call: number) => Promise<GpuAnswerText> | GpuAnswerText) {
  const calls: { instanceId: string; command: string; at: number }[] = []
  let clock: ManualClock | undefined
  const runner: GpuRunner = {
    run: async (instanceId, command) => {
      calls.push({ instanceId, command, at: clock?.now() ?? 0 })
      return answer(instanceId, calls.length)
    }
  }
  return { runner, calls, useClock: (c: ManualClock) => (clock = c) }
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
const targets = (entries: [string, ProbeTarget][]) => new Map(entries)

describe('GpuProbes', () => {
  it('probes each running instance once a minute with the query, keeping the last hour', async () => {
    const clock = new ManualClock()
    const fake = scripted(() => ({ stdout: '5, 100, 81920\n', exitCode: 0 }))
    fake.useClock(clock)
    const changed: string[] = []
    const probes = new GpuProbes({ clock, runner: fake.runner, onChange: (id) => changed.push(id) })
    probes.update(
      targets([
        ['i-1', { probe: true }],
        ['i-2', { probe: true }]
      ])
    )
    await clock.advanceAsync(FIRST_PROBE_DELAY_MS + 90 * MIN, settle)
    const one = fake.calls.filter((c) => c.instanceId === 'i-1')
    expect(one).toHaveLength(91)
    expect(new Set(fake.calls.map((c) => c.command))).toEqual(new Set([GPU_QUERY]))
    expect(one[1]!.at - one[0]!.at).toBe(MIN)
    const activity = probes.activity('i-1')
    expect(activity.state).toBe('probing')
    // The window is told a summary: the newest probe in full, one point per probe for the hour.
    expect(activity).toEqual({
      state: 'probing',
      latest: { at: clock.now(), gpus: [{ utilization: 5, memoryUsedMiB: 100, memoryTotalMiB: 81920 }] },
      history: Array.from({ length: 61 }, (_, index) => ({ at: clock.now() - (60 - index) * MIN, busiest: 5 }))
    })
    // The idle rule's evidence goes back further (its longest setting), one reading a probe.
    expect(probes.samples('i-1')).toHaveLength(91)
    expect(probes.samples('i-1').at(-1)).toEqual({ at: clock.now(), gpus: [{ utilization: 5, memoryUsedMiB: null, memoryTotalMiB: null }] })
    expect(changed.filter((id) => id === 'i-2')).toHaveLength(91)
  })

  it('stops when the instance stops: no more probes, no history, a late answer ignored', async () => {
    const clock = new ManualClock()
    let release: (() => void) | undefined
    const fake = scripted((_id, call) =>
      call < 3
        ? { stdout: '0, 0, 1', exitCode: 0 }
        : new Promise((resolve) => (release = () => resolve({ stdout: '0, 0, 1', exitCode: 0 })))
    )
    const changed: string[] = []
    const probes = new GpuProbes({ clock, runner: fake.runner, onChange: (id) => changed.push(id) })
    probes.update(targets([['i-1', { probe: true }]]))
    await clock.advanceAsync(FIRST_PROBE_DELAY_MS + 2 * MIN, settle)
    expect(fake.calls).toHaveLength(3) // the third is in flight
    probes.update(new Map())
    release?.()
    await clock.advanceAsync(30 * MIN, settle)
    expect(fake.calls).toHaveLength(3)
    expect(changed).toHaveLength(2)
    expect(probes.activity('i-1')).toEqual({ state: 'off' })
    expect(probes.probing()).toEqual([])
  })

  it('says why it cannot probe, records the miss, and retries rarely what only the user can fix', async () => {
    const clock = new ManualClock()
    const fake = scripted((id) => {
      if (id === 'trust') throw new ProbeUnavailable('The host key of 10.0.0.9:30022 is not trusted yet: open a terminal to it once.', true)
      if (id === 'down') throw new ProbeUnavailable('connection refused', false)
      return { stdout: '', exitCode: 127 }
    })
    const probes = new GpuProbes({ clock, runner: fake.runner, onChange: () => {} })
    probes.update(
      targets([
        ['trust', { probe: true }],
        ['down', { probe: true }],
        ['bare', { probe: true }],
        ['no-ssh', { probe: false, reason: 'It has no SSH port.' }]
      ])
    )
    await clock.advanceAsync(FIRST_PROBE_DELAY_MS + 20 * MIN, settle)
    const count = (id: string) => fake.calls.filter((c) => c.instanceId === id).length
    expect(count('down')).toBe(21)
    expect(count('trust')).toBe(3)
    expect(count('bare')).toBe(3)
    expect(count('no-ssh')).toBe(0)
    expect(probes.activity('trust')).toMatchObject({ state: 'unavailable', reason: expect.stringMatching(/not trusted yet/) })
    expect(probes.activity('bare')).toMatchObject({
      state: 'unavailable',
      reason: 'nvidia-smi is not installed on this instance, so its GPUs cannot be read.'
    })
    expect(probes.activity('no-ssh')).toEqual({ state: 'unavailable', reason: 'It has no SSH port.', history: [] })
    expect(probes.samples('down').every((s) => s.missed === 'connection refused' && s.gpus.length === 0)).toBe(true)
    expect(NEEDS_USER_RETRY_MS).toBe(10 * MIN)
  })

  it('reads at once when the instance’s connection comes up after the user trusted its host key, not ten minutes later (#24)', async () => {
    const clock = new ManualClock()
    const start = clock.now()
    let trusted = false
    const fake = scripted(() => {
      if (!trusted) throw new ProbeUnavailable('The host key of 10.0.0.9:30022 is not trusted yet: open a terminal to it once.', true)
      return { stdout: '42, 100, 200\n', exitCode: 0 }
    })
    fake.useClock(clock)
    const ready = new Set<(instanceId: string) => void>()
    const runner: GpuRunner = { ...fake.runner, onReady: (listener) => (ready.add(listener), () => void ready.delete(listener)) }
    const probes = new GpuProbes({ clock, runner, onChange: () => {} })
    probes.update(
      targets([
        ['i-1', { probe: true }],
        ['i-2', { probe: true }]
      ])
    )
    await clock.advanceAsync(FIRST_PROBE_DELAY_MS + MIN, settle)
    expect(probes.activity('i-1')).toMatchObject({ state: 'unavailable', reason: expect.stringMatching(/not trusted yet/) })
    expect(fake.calls).toHaveLength(2)

    // The user opens a terminal and trusts the key: the link's connection comes up.
    trusted = true
    for (const listener of ready) listener('i-1')
    await clock.advanceAsync(0, settle)
    expect(fake.calls.filter((call) => call.instanceId === 'i-1')).toHaveLength(2)
    expect(fake.calls.at(-1)!.at).toBe(start + FIRST_PROBE_DELAY_MS + MIN)
    const activity = probes.activity('i-1')
    expect(activity.state).toBe('probing')
    expect(probes.samples('i-1').at(-1)).toMatchObject({ at: start + FIRST_PROBE_DELAY_MS + MIN, gpus: [{ utilization: 42 }] })
    // The other instance was not touched; it keeps its own (rare) turn.
    expect(fake.calls.filter((call) => call.instanceId === 'i-2')).toHaveLength(1)
    // A working probe keeps its period: another connection does not probe again.
    for (const listener of ready) listener('i-1')
    await clock.advanceAsync(0, settle)
    expect(fake.calls.filter((call) => call.instanceId === 'i-1')).toHaveLength(2)
    await clock.advanceAsync(MIN, settle)
    expect(fake.calls.filter((call) => call.instanceId === 'i-1')).toHaveLength(3)
    probes.dispose()
    expect(ready.size).toBe(0)
  })

  it('a connection that comes up while a failing probe is in flight runs the next one at once (#24)', async () => {
    const clock = new ManualClock()
    const answers: ((answer: { stdout: string; exitCode: number | null } | Error) => void)[] = []
    const fake = scripted(
      () => new Promise((resolve, reject) => answers.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))))
    )
    let listener: ((instanceId: string) => void) | undefined
    const runner: GpuRunner = { ...fake.runner, onReady: (l) => ((listener = l), () => (listener = undefined)) }
    const probes = new GpuProbes({ clock, runner, onChange: () => {} })
    probes.update(targets([['i-1', { probe: true }]]))
    await clock.advanceAsync(FIRST_PROBE_DELAY_MS, settle)
    expect(answers).toHaveLength(1)
    listener!('i-1')
    answers[0]!(new ProbeUnavailable('not trusted yet', true))
    await clock.advanceAsync(0, settle)
    expect(answers).toHaveLength(2)
    answers[1]!({ stdout: '5, 1, 2', exitCode: 0 })
    await clock.advanceAsync(0, settle)
    expect(probes.activity('i-1').state).toBe('probing')
    probes.dispose()
  })

  it('recovers: a probe that works again clears the reason', async () => {
    const clock = new ManualClock()
    const fake = scripted((_id, call) => {
      if (call === 1) throw new ProbeUnavailable('connection refused', false)
      return { stdout: '50, 1, 2', exitCode: 0 }
    })
    const probes = new GpuProbes({ clock, runner: fake.runner, onChange: () => {} })
    probes.update(targets([['i-1', { probe: true }]]))
    await clock.advanceAsync(FIRST_PROBE_DELAY_MS, settle)
    expect(probes.activity('i-1').state).toBe('unavailable')
    await clock.advanceAsync(MIN, settle)
    expect(probes.activity('i-1').state).toBe('probing')
  })

  it('runs at most MAX_PROBES_AT_ONCE at a time, however many instances run, and drops the queue when an instance goes', async () => {
    const clock = new ManualClock()
    const answers: (() => void)[] = []
    const fake = scripted(() => new Promise((resolve) => answers.push(() => resolve({ stdout: '0, 0, 1\n', exitCode: 0 }))))
    const probes = new GpuProbes({ clock, runner: fake.runner, onChange: () => {} })
    const ids = Array.from({ length: 10 }, (_, i) => `i-${i}`)
    probes.update(targets(ids.map((id) => [id, { probe: true }])))
    await clock.advanceAsync(FIRST_PROBE_DELAY_MS, settle)
    expect(fake.calls).toHaveLength(MAX_PROBES_AT_ONCE)
    // i-9 stops while it waits in the queue: it is never asked.
    probes.update(targets(ids.slice(0, 9).map((id) => [id, { probe: true }])))
    for (let answered = 0; answered < 9; answered++) {
      answers.shift()!()
      await settle()
    }
    expect(fake.calls.map((c) => c.instanceId)).toEqual(ids.slice(0, 9))
    expect(answers).toHaveLength(0)
    probes.dispose()
  })
  it('an answer that is no reading is a missed sample in the user’s words, never idle; an answer cut off at the limit too', async () => {
    const clock = new ManualClock()
    const fake = scripted((id) =>
      id === 'flood' ? { stdout: '0,,\n'.repeat(100), exitCode: 0 } : { stdout: '0, 0, 81920\n'.slice(0, 7), exitCode: 0, truncated: true }
    )
    const probes = new GpuProbes({ clock, runner: fake.runner, onChange: () => {} })
    probes.update(
      targets([
        ['flood', { probe: true }],
        ['cut', { probe: true }]
      ])
    )
    await clock.advanceAsync(FIRST_PROBE_DELAY_MS, settle)
    expect(probes.activity('flood')).toMatchObject({
      state: 'unavailable',
      reason: `The instance sent readings we cannot use (it listed more than ${MAX_GPUS} GPUs).`,
      history: [{ busiest: null, missed: true }]
    })
    expect(probes.activity('cut')).toMatchObject({
      state: 'unavailable',
      reason: `The instance sent readings we cannot use (it printed more than ${GPU_OUTPUT_BYTES / 1024} KiB).`
    })
  })

  it('keeps fixed-size rings: GPU_HISTORY_POINTS for the window, a day of one reading each for the idle rule', async () => {
    const clock = new ManualClock()
    const fake = scripted(() => ({ stdout: '1, 1, 1\n7, 1, 1\n', exitCode: 0 }))
    const probes = new GpuProbes({ clock, runner: fake.runner, onChange: () => {}, periodMs: 10_000 })
    probes.update(targets([['i-1', { probe: true }]]))
    await clock.advanceAsync(FIRST_PROBE_DELAY_MS + 26 * 60 * MIN, settle)
    expect(fake.calls.length).toBeGreaterThan(9_000)
    const activity = probes.activity('i-1')
    expect(activity.state !== 'off' && activity.history).toHaveLength(GPU_HISTORY_POINTS)
    const evidence = probes.samples('i-1')
    expect(evidence.length).toBe(MAX_IDLE_MINUTES + 16)
    expect(evidence.every((sample) => sample.gpus.length === 1 && sample.gpus[0]!.utilization === 7)).toBe(true)
  })

  it('a throw while handling one instance’s answer marks that instance unavailable and is told; the others go on', async () => {
    const clock = new ManualClock()
    const fake = scripted(() => ({ stdout: '1, 1, 1\n', exitCode: 0 }))
    const faults: string[] = []
    let first = true
    const probes = new GpuProbes({
      clock,
      runner: fake.runner,
      onChange: (id) => {
        if (id === 'bad' && first) {
          first = false
          throw new RangeError('Maximum call stack size exceeded')
        }
      },
      fault: (id) => faults.push(id)
    })
    probes.update(
      targets([
        ['bad', { probe: true }],
        ['good', { probe: true }]
      ])
    )
    await clock.advanceAsync(FIRST_PROBE_DELAY_MS, settle)
    expect(faults).toEqual(['bad'])
    expect(probes.activity('bad')).toMatchObject({
      state: 'unavailable',
      reason: 'The instance sent readings we cannot use (they could not be read).'
    })
    expect(probes.activity('good').state).toBe('probing')
    // The next probe comes as usual, and works.
    await clock.advanceAsync(MIN, settle)
    expect(fake.calls.filter((call) => call.instanceId === 'bad')).toHaveLength(2)
    expect(probes.activity('bad').state).toBe('probing')
  })
})
