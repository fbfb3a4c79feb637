/**
 * Keyboard-interactive and password authentication, against an in-process ssh2 server that
 * offers only those methods (OpenSSH would need a real account password for them): the
 * questions reach the user as `ssh.prompt`, the answers log in, and a cancel stops for good.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ssh2 from 'ssh2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock, systemClock } from '../../../shared/clock'
import { generateEd25519PrivateKey } from '../../../emulator/reach/host-key'
import { KnownHostsStore } from '../host-keys/known-hosts-store'
import { runningInstance } from '../testing/instance'
import { TerminalHarness } from '../testing/terminal-harness'
import type { PromptAnswer, SshPrompt } from '../../../shared/contract-ssh'

const { Server } = ssh2

/** The user trusts the host key once and answers the `kind` prompt with `secret`; anything else is cancelled. */
function trustingTheHostAnswer(kind: 'keyboard-interactive' | 'password', secret: string) {
  return (prompt: SshPrompt): PromptAnswer => {
    if (prompt.kind === 'host-key') return { kind: 'host-key', decision: 'accept-once' }
    if (prompt.kind === kind) return { kind: 'secret', values: [secret] }
    return { kind: 'cancel' }
  }
}

describe('keyboard-interactive and password prompts', () => {
  let server: InstanceType<typeof Server>
  let port = 0
  let scratch: string
  /** What the server allows after "none": set per test. */
  let methods: ('keyboard-interactive' | 'password')[] = []

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'cloudtray-auth-'))
    const hostKey = generateEd25519PrivateKey('auth-prompts-test')
    server = new Server({ hostKeys: [hostKey] }, (client) => {
      client.on('authentication', (ctx) => {
        if (ctx.method === 'keyboard-interactive' && methods.includes('keyboard-interactive')) {
          ctx.prompt([{ prompt: 'Verification code: ', echo: true }], 'Two-factor', 'Enter the code from your phone.', (answers) => {
            if (answers[0] === '123456') ctx.accept()
            else ctx.reject(methods)
          })
        } else if (ctx.method === 'password' && methods.includes('password') && ctx.password === 'hunter2') {
          ctx.accept()
        } else {
          ctx.reject(methods)
        }
      })
      client.on('ready', () => {
        client.on('session', (accept) => {
          const session = accept()
          session.on('pty', (ok) => ok?.())
          session.on('shell', (ok) => {
            const stream = ok()
            stream.write('welcome in\r\n')
          })
        })
      })
      client.on('error', () => {})
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    rmSync(scratch, { recursive: true, force: true })
  })

  function setup(clock = systemClock()) {
    const harness = new TerminalHarness()
    const { terminals } = harness.connect({
      clock,
      findInstance: (instanceId) => runningInstance({ instanceId, host: '127.0.0.1', port, username: 'alice' }),
      knownHosts: new KnownHostsStore(join(scratch, `known_hosts-${Math.random()}`), undefined),
      homeDir: join(scratch, 'empty-home'),
      settingsKeyFile: () => null,
      sandboxKeyFile: () => undefined,
      agent: undefined
    })
    return { harness, terminals }
  }

  /** The server offers only `method`; the user trusts the host and answers with `secret`; terminal `instanceId` gets in. */
  async function loggedInWith(method: 'keyboard-interactive' | 'password', secret: string, instanceId: string) {
    methods = [method]
    const { harness, terminals } = setup()
    harness.answerPrompt = trustingTheHostAnswer(method, secret)
    const { terminalId } = terminals.open(instanceId, 80, 24, harness.clientId)
    await harness.waitForOutput(terminalId, 'welcome in')
    return { harness, terminals }
  }

  it('asks the server’s keyboard-interactive questions with its instructions and logs in', async () => {
    const { harness, terminals } = await loggedInWith('keyboard-interactive', '123456', 'i-kbd')
    expect(harness.prompts.find((prompt) => prompt.kind === 'keyboard-interactive')).toMatchObject({
      kind: 'keyboard-interactive',
      host: '127.0.0.1',
      username: 'alice',
      instructions: 'Enter the code from your phone.',
      prompts: [{ prompt: 'Verification code: ', echo: true }]
    })
    terminals.dispose()
  })

  it('asks for a password when that is what the server allows, and never repeats it in events', async () => {
    const { harness, terminals } = await loggedInWith('password', 'hunter2', 'i-pw')
    expect(harness.prompts.map((prompt) => prompt.kind)).toEqual(['host-key', 'password'])
    expect(JSON.stringify([harness.prompts, harness.statuses])).not.toContain('hunter2')
    terminals.dispose()
  })

  it('stops without retrying when the user cancels the password prompt', async () => {
    methods = ['password']
    const clock = new ManualClock()
    const { harness, terminals } = setup(clock)
    harness.answerPrompt = (prompt) => (prompt.kind === 'host-key' ? { kind: 'host-key', decision: 'accept-once' } : { kind: 'cancel' })
    const { terminalId } = terminals.open('i-cancel', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'failed')
    expect(harness.lastStatus(terminalId)).toMatchObject({ needsUser: true, message: expect.stringMatching(/cancelled/) })
    clock.advance(600_000)
    expect(harness.lastStatus(terminalId)?.state).toBe('failed')
    terminals.dispose()
  })
})
