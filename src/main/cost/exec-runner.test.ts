import { describe, expect, it } from 'vitest'
import { execRunner, PROBE_TIMEOUT_MS } from './exec-runner'
import { GPU_OUTPUT_BYTES, GPU_QUERY, ProbeUnavailable } from './gpu-probe'

/** An ExecError's shape (src/main/ssh/links/exec.ts): a reason and words. */
const failure = (reason: string, message: string): Error => Object.assign(new Error(message), { reason })

describe('execRunner', () => {
  it('runs the command through the links’ exec, bounded so a probe never runs into the next', async () => {
    const calls: unknown[][] = []
    const runner = execRunner({
      exec: async (...args) => (calls.push(args), { exitCode: 0, stdout: '3, 1, 2\n', stderr: '' }),
      onConnected: () => () => {}
    })
    expect(await runner.run('i-1', GPU_QUERY)).toEqual({ exitCode: 0, stdout: '3, 1, 2\n', stderr: '' })
    expect(calls).toEqual([['i-1', GPU_QUERY, { timeoutMs: PROBE_TIMEOUT_MS, maxOutputBytes: GPU_OUTPUT_BYTES }]])
  })

  it.each([
    ['host-key-unknown', true],
    ['needs-passphrase', true],
    ['auth', true],
    ['host-key', true],
    ['cancelled', true],
    ['network', false],
    ['timeout', false],
    ['instance-stopped', false],
    ['reconnecting', false],
    ['not-running', false]
  ])('%s: a missed sample in the links’ words (only the user can fix it: %s)', async (reason, needsUser) => {
    const message = `Why, in words (${reason}).`
    const runner = execRunner({ exec: async () => Promise.reject(failure(reason, message)), onConnected: () => () => {} })
    const error = await runner.run('i-1', GPU_QUERY).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProbeUnavailable)
    expect(error).toMatchObject({ needsUser, message })
  })

  it('hands on the links’ word that an instance’s connection came up, and stops when asked (#24)', () => {
    const listeners = new Set<(instanceId: string) => void>()
    const runner = execRunner({
      exec: async () => ({ exitCode: 0, stdout: '', stderr: '' }),
      onConnected: (listener) => (listeners.add(listener), () => void listeners.delete(listener))
    })
    const heard: string[] = []
    const stop = runner.onReady!((instanceId) => heard.push(instanceId))
    for (const listener of listeners) listener('i-1')
    stop()
    for (const listener of listeners) listener('i-2')
    expect(heard).toEqual(['i-1'])
  })
})
