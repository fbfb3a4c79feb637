/**
 * A command line's sessions (`ssh.open` with `run`, contract-ssh.ts) against Debian's OpenSSH
 * server: a command's exit status and its stdout and stderr apart, a signal, a pty when asked,
 * piped input as bytes with end-of-file and its credit, no second run after the connection
 * drops, and the link kept warm afterwards so the next command skips the handshake.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PromptAnswer, SshPrompt } from '../../shared/contract-ssh'
import { KnownHostsStore } from './host-keys/known-hosts-store'
import { SshManager } from './ssh-manager'
import { runningInstance } from './testing/instance'
import { OpenSshServer, opensshAvailable } from './testing/openssh-server'
import { splitClock } from './testing/split-clock'
import { TerminalHarness } from './testing/terminal-harness'

const acceptAll = (prompt: SshPrompt): PromptAnswer | undefined =>
  prompt.kind === 'host-key' ? { kind: 'host-key', decision: 'accept-and-remember' } : undefined

describe.skipIf(!opensshAvailable())('command line sessions against OpenSSH', () => {
  let server: OpenSshServer
  let scratch: string
  const managers: SshManager[] = []

  beforeAll(async () => {
    server = new OpenSshServer()
    await server.start()
    scratch = mkdtempSync(join(tmpdir(), 'cloudtray-run-test-'))
  })

  afterAll(async () => {
    for (const manager of managers) manager.dispose()
    await server?.dispose()
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })

  let counter = 0
  function setup() {
    const harness = new TerminalHarness()
    const home = join(scratch, `home-${++counter}`)
    mkdirSync(home, { recursive: true })
    const { clock, manual } = splitClock()
    const manager = new SshManager({
      clock,
      emit: harness.emit,
      findInstance: (instanceId) => runningInstance({ instanceId, host: '127.0.0.1', port: server.port, username: server.username }),
      knownHosts: new KnownHostsStore(join(home, 'app-known_hosts'), join(home, '.ssh', 'known_hosts')),
      homeDir: home,
      settingsKeyFile: () => server.userKeyPath,
      sandboxKeyFile: () => undefined,
      agent: undefined,
      random: () => 0
    })
    harness.manager = manager
    harness.answerPrompt = acceptAll
    managers.push(manager)
    return { harness, manager, manual }
  }

  it('passes a command’s exit status, with its stdout and stderr apart', async () => {
    const { harness, manager } = setup()
    const { terminalId } = manager.open('i-1', 80, 24, harness.clientId, { command: 'echo out; echo err >&2; exit 7', pty: false })
    await harness.waitForState(terminalId, 'closed')
    expect(harness.lastStatus(terminalId)).toMatchObject({ state: 'closed', exitCode: 7, message: 'command ended (exit 7)' })
    expect(harness.output(terminalId)).toBe('out\n')
    expect(harness.errorOutput(terminalId)).toBe('err\n')
    // A command runs once: there is nothing to reconnect.
    expect(() => manager.reconnect(terminalId, harness.clientId)).toThrow(/runs once/)
  })

  it('says which signal killed a command', async () => {
    const { harness, manager } = setup()
    const { terminalId } = manager.open('i-2', 80, 24, harness.clientId, { command: 'kill -TERM $$', pty: false })
    await harness.waitForState(terminalId, 'closed')
    expect(harness.lastStatus(terminalId)).toMatchObject({ signal: 'TERM', message: 'command ended (killed by SIGTERM)' })
    expect(harness.lastStatus(terminalId)!.exitCode).toBeUndefined()
  })

  it('gives a pseudo-terminal of the asked size and TERM only when asked', async () => {
    const { harness, manager } = setup()
    const withPty = manager.open('i-3', 100, 30, harness.clientId, {
      command: 'stty size; echo $TERM; test -t 0',
      pty: true,
      term: 'vt100'
    })
    await harness.waitForState(withPty.terminalId, 'closed')
    expect(harness.output(withPty.terminalId)).toBe('30 100\r\nvt100\r\n')
    expect(harness.lastStatus(withPty.terminalId)!.exitCode).toBe(0)
    const without = manager.open('i-3', 100, 30, harness.clientId, { command: 'test -t 0', pty: false })
    await harness.waitForState(without.terminalId, 'closed')
    expect(harness.lastStatus(without.terminalId)!.exitCode).toBe(1)
  })

  it('takes piped input as bytes, ends it with EOF, and credits what went out', async () => {
    const { harness, manager } = setup()
    const { terminalId } = manager.open('i-4', 80, 24, harness.clientId, { command: 'od -An -tx1 | tr -d " \\n"; echo', pty: false })
    await harness.waitForState(terminalId, 'connected')
    const bytes = new Uint8Array([0, 255, 0xc3, 0x28, 10, 13])
    manager.input(terminalId, bytes, harness.clientId)
    manager.input(terminalId, 'ok', harness.clientId)
    manager.eof(terminalId, harness.clientId)
    await harness.waitForState(terminalId, 'closed')
    expect(harness.output(terminalId)).toBe('00ffc3280a0d6f6b\n')
    expect(harness.written.get(terminalId)).toBe(8)
  })

  it('never runs a command again after its connection drops, and keeps a finished one’s link warm', async () => {
    const { harness, manager } = setup()
    const first = manager.open('i-5', 80, 24, harness.clientId, { command: 'true', pty: false })
    await harness.waitForState(first.terminalId, 'closed')
    const warm = manager.connectionOf('i-5')
    expect(warm).toBeDefined()
    // The next one runs on the same connection: no new handshake.
    const second = manager.open('i-5', 80, 24, harness.clientId, { command: 'echo again', pty: false })
    await harness.waitForState(second.terminalId, 'closed')
    expect(manager.connectionOf('i-5')).toBe(warm)
    expect(harness.output(second.terminalId)).toBe('again\n')

    const long = manager.open('i-5', 80, 24, harness.clientId, { command: 'echo started; sleep 30', pty: false })
    await harness.waitForOutput(long.terminalId, 'started')
    await server.stop()
    await harness.waitForState(long.terminalId, 'closed')
    expect(harness.lastStatus(long.terminalId)).toMatchObject({ message: 'the connection to the instance was lost while the command ran' })
    expect(harness.lastStatus(long.terminalId)!.exitCode).toBeUndefined()
    // It left the link: nothing is kept retrying on its behalf, so it can never run again.
    await new Promise((resolve) => setImmediate(resolve))
    expect(manager.links.usersOf('i-5')).toBe(0)
    await server.start()
  })
})
