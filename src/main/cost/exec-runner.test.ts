import { describe, expect, it } from 'vitest'
import { execRunner, PROBE_TIMEOUT_MS } from './exec-runner'
import { GPU_QUERY, ProbeUnavailable } from './gpu-probe'

/** An ExecError's shape (src/main/ssh/links.ts): a reason and words. */
const failure = (reason: string, message: string): Error => Object.assign(new Error(message), { reason })

describe('execRunner', () => {
  it('runs the command through the links’ exec, bounded so a probe never runs into the next', async () => {
    const calls: unknown[][] = []
    const runner = execRunner({ exec: async (...args) => (calls.push(args), { exitCode: 0, stdout: '3, 1, 2\n', stderr: '' }) })
    expect(await runner.run('i-1', GPU_QUERY)).toEqual({ exitCode: 0, stdout: '3, 1, 2\n', stderr: '' })
    expect(calls).toEqual([['i-1', GPU_QUERY, { timeoutMs: PROBE_TIMEOUT_MS }]])
  })

  it.each([
    ['host-key-unknown', true, /trust its host key/],
    ['needs-passphrase', true, /type the key’s passphrase/],
    ['auth', true, /Check the SSH key in Settings/],
    ['host-key', true, /^changed$/],
    ['network', false, /^changed$/],
    ['timeout', false, /^changed$/],
    ['instance-stopped', false, /^changed$/],
    ['reconnecting', false, /^changed$/]
  ])('%s: a missed sample saying why (needs the user: %s)', async (reason, needsUser, words) => {
    const message = words.source === '^changed$' ? 'changed' : 'The host key is not trusted yet.'
    const runner = execRunner({ exec: async () => Promise.reject(failure(reason, message)) })
    const error = await runner.run('i-1', GPU_QUERY).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProbeUnavailable)
    expect((error as ProbeUnavailable).needsUser).toBe(needsUser)
    expect((error as ProbeUnavailable).message).toMatch(words)
  })
})
