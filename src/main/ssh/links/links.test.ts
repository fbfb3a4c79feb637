/**
 * The shared connection per instance and `exec` against Debian's OpenSSH: exec rides on a
 * terminal's connection, or opens one of its own that the next call reuses until it idles out;
 * it never asks the user (an unknown host key and a locked key fail with their reason and no
 * prompt); and it stops when the instance stops.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { quote } from 'shlex'
import { describe, expect, it } from 'vitest'
import type { Instance } from '../../../shared/api'
import type { PromptAnswer, SshPrompt } from '../../../shared/contract-ssh'
import { REFUSED_PORT } from '../../../shared/node/testing/refused-port'
import { KnownHostsStore } from '../host-keys/known-hosts-store'
import { ExecError } from './exec'
import { opensshAvailable } from '../testing/openssh-server'
import { useOpenSshServer } from '../testing/use-openssh-server'
import { splitClock } from '../testing/split-clock'
import { sshdInstance, sshdLinks } from '../testing/sshd-links'
import { TerminalHarness } from '../testing/terminal-harness'

describe.skipIf(!opensshAvailable())('shared connections and exec against OpenSSH', () => {
  const sshd = useOpenSshServer('cloudtray-links-')
  const disposers: (() => void)[] = []
  sshd.onEnd(async () => {
    for (const dispose of disposers) dispose()
  })

  let counter = 0
  function setup(options: { keyFile?: string; trusted?: boolean } = {}) {
    const home = join(sshd.scratch, `home-${++counter}`)
    mkdirSync(home, { recursive: true })
    const { clock, manual } = splitClock()
    const harness = new TerminalHarness()
    let status = 'Running'
    const instance = (): Instance => {
      const made = sshdInstance(sshd.server)
      made.instanceRuntimeInfo.status = status
      return made
    }
    const knownHosts = new KnownHostsStore(join(home, 'app-known_hosts'), undefined)
    const links = sshdLinks(sshd.server, {
      clock,
      knownHosts,
      homeDir: home,
      emit: harness.emit,
      instance,
      execIdleMs: 60_000,
      ...(options.keyFile ? { keyFile: options.keyFile } : {})
    })
    const terminals = harness.attach(links, clock)
    disposers.push(
      () => terminals.dispose(),
      () => links.dispose()
    )
    const trust = async (): Promise<void> => {
      const { keyType, keyBase64 } = sshd.server.hostPublicKey()
      await knownHosts.remember('127.0.0.1', sshd.server.port, { keyType, keyBase64 })
    }
    return { links, terminals, harness, manual, trust, stop: () => (status = 'Stopping') }
  }

  it('runs a command on the connection a terminal already has, without a new login', async () => {
    const { links, terminals, harness, trust } = setup()
    await trust()
    const { terminalId } = terminals.open('i-1', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    const shared = links.connectionOf('i-1')
    const result = await links.exec('i-1', 'printf "%s" "$((6*7))"; echo oops >&2; exit 3')
    expect(result).toEqual({ exitCode: 3, stdout: '42', stderr: 'oops\n' })
    expect(links.connectionOf('i-1')).toBe(shared)
    expect(links.usersOf('i-1')).toBe(2)
  })

  it('opens a connection for exec alone, reuses it for the next call, and lets it go when idle', async () => {
    const { links, manual, trust, harness } = setup()
    await trust()
    expect((await links.exec('i-1', 'echo one')).stdout).toBe('one\n')
    const first = links.connectionOf('i-1')
    expect(first).toBeDefined()
    manual.advance(50_000)
    expect((await links.exec('i-1', 'echo two')).stdout).toBe('two\n')
    expect(links.connectionOf('i-1')).toBe(first)
    // The idle time counts from the last call.
    manual.advance(59_000)
    expect(links.connectionOf('i-1')).toBe(first)
    manual.advance(2_000)
    expect(links.connectionOf('i-1')).toBeUndefined()
    await first!.closed
    expect(harness.prompts).toEqual([])
  })

  it('never asks: an unknown host key and a key that needs its passphrase fail with their reason', async () => {
    const { links, harness } = setup()
    const unknown = await links.exec('i-1', 'true').catch((error: unknown) => error)
    expect(unknown).toBeInstanceOf(ExecError)
    expect(unknown).toMatchObject({ reason: 'host-key-unknown', message: expect.stringMatching(/not trusted yet.*Open a terminal/) })
    expect(harness.prompts).toEqual([])
    expect(links.connectionOf('i-1')).toBeUndefined()

    const locked = sshd.server.addUserKey(`locked-${counter}`, 'sesame')
    const other = setup({ keyFile: locked })
    await other.trust()
    const refused = await other.links.exec('i-1', 'true').catch((error: unknown) => error)
    expect(refused).toMatchObject({ reason: 'needs-passphrase', message: expect.stringContaining(locked) })
    expect(other.harness.prompts).toEqual([])

    // Once a terminal was given the passphrase, background commands work for the rest of the session.
    other.harness.answerPrompt = (prompt: SshPrompt): PromptAnswer | undefined =>
      prompt.kind === 'passphrase' ? { kind: 'secret', values: ['sesame'] } : undefined
    const { terminalId } = other.terminals.open('i-1', 80, 24, other.harness.clientId)
    await other.harness.waitForState(terminalId, 'connected')
    other.terminals.close(terminalId, other.harness.clientId)
    expect((await other.links.exec('i-1', 'echo unlocked')).stdout).toBe('unlocked\n')
  })

  it('says why it could not connect, without the link’s "Retrying in": nothing retries for a background command', async () => {
    const port = REFUSED_PORT
    const home = join(sshd.scratch, `home-${++counter}`)
    mkdirSync(home, { recursive: true })
    const links = sshdLinks(sshd.server, {
      clock: splitClock().clock,
      knownHosts: new KnownHostsStore(join(home, 'app-known_hosts'), undefined),
      homeDir: home,
      instance: () => sshdInstance(sshd.server, 'i-1', port)
    })
    disposers.push(() => links.dispose())
    const refused = await links.exec('i-1', 'true').catch((error: unknown) => error)
    expect(refused).toMatchObject({ reason: 'reconnecting', message: expect.stringContaining('ECONNREFUSED') })
    expect((refused as Error).message).not.toMatch(/retrying/i)
  })

  it('stops when the instance stops: the connection ends and later calls say the instance is not running', async () => {
    const { links, trust, stop } = setup()
    await trust()
    await links.exec('i-1', 'true')
    const connection = links.connectionOf('i-1')!
    // The command is running once its marker exists (a fixed sleep lost that race on a busy machine).
    const marker = join(sshd.scratch, `running-${counter}`)
    const running = links.exec('i-1', `touch ${quote(marker)}; sleep 30`)
    for (let waited = 0; !existsSync(marker) && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(existsSync(marker)).toBe(true)
    stop()
    links.instanceStopped('i-1', 'test-box stopped.')
    await connection.closed
    // The command in flight ends with its channel; the next one is refused before any login.
    await expect(running).resolves.toMatchObject({ exitCode: null })
    await expect(links.exec('i-1', 'true')).rejects.toMatchObject({ reason: 'not-running' })
    expect(links.connectionOf('i-1')).toBeUndefined()
  })
})
