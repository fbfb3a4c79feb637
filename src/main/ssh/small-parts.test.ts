import { describe, expect, it } from 'vitest'
import { agentPath, WINDOWS_OPENSSH_AGENT_PIPE } from './auth/agent-path'
import { authCandidates } from './auth/auth'
import { MAX_RECONNECT_ATTEMPTS, reconnectDelay } from './links/backoff'
import { PromptBroker } from './auth/prompts'
import type { SshPrompt } from '../../shared/contract-ssh'

describe('agentPath', () => {
  it('uses SSH_AUTH_SOCK anywhere, else the Windows OpenSSH pipe, else Pageant', () => {
    expect(agentPath('linux', { SSH_AUTH_SOCK: '/tmp/a.sock' }, () => false)).toBe('/tmp/a.sock')
    expect(agentPath('linux', {}, () => true)).toBeUndefined()
    expect(agentPath('win32', {}, (path) => path === WINDOWS_OPENSSH_AGENT_PIPE)).toBe(WINDOWS_OPENSSH_AGENT_PIPE)
    expect(agentPath('win32', {}, () => false)).toBe('pageant')
  })
})

describe('authCandidates', () => {
  it('orders agent, key files (without repeats or blanks), keyboard-interactive, password', () => {
    expect(authCandidates({ agent: '/a', keyFiles: ['/k1', null, '/k2', '/k1', undefined] })).toEqual([
      { kind: 'agent', agent: '/a' },
      { kind: 'key', path: '/k1' },
      { kind: 'key', path: '/k2' },
      { kind: 'keyboard-interactive' },
      { kind: 'password' }
    ])
  })
})

describe('reconnectDelay', () => {
  it('grows 1, 2, 4, 8, 16 then stays at 30 s, and stops after the limit', () => {
    const zero = (): number => 0
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => reconnectDelay(attempt, zero))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000])
    expect(reconnectDelay(MAX_RECONNECT_ATTEMPTS + 1, zero)).toBeUndefined()
    expect(reconnectDelay(1, () => 1)).toBe(1100)
  })
})

describe('PromptBroker', () => {
  it('sends each question to its client only, accepts only that client’s answer, and cancels when it goes', async () => {
    const sent: [SshPrompt, string][] = []
    const broker = new PromptBroker((prompt, client) => sent.push([prompt, client]))
    const first = broker.ask('a', { kind: 'passphrase', keyFile: '/k', retry: false })
    const second = broker.ask('b', { kind: 'passphrase', keyFile: '/k', retry: false })
    expect(sent.map(([prompt, client]) => [prompt.promptId, client])).toEqual([
      [first.promptId, 'a'],
      [second.promptId, 'b']
    ])
    expect(broker.answer(first.promptId, { kind: 'secret', values: ['x'] }, 'b')).toBe(false)
    expect(broker.answer(first.promptId, { kind: 'secret', values: ['x'] }, 'a')).toBe(true)
    expect(broker.answer(first.promptId, { kind: 'secret', values: ['x'] }, 'a')).toBe(false)
    await expect(first.answer).resolves.toEqual({ kind: 'secret', values: ['x'] })
    broker.clientGone('b')
    await expect(second.answer).resolves.toEqual({ kind: 'cancel' })
    expect(broker.size).toBe(0)
  })
})
