/**
 * The SSH module against Debian's OpenSSH server on a loopback port: host-key prompts and
 * refusals, each way of authenticating, the shell and its window size, exec exit codes,
 * keepalive, reconnect, flow control under a flood, and a command line's sessions.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BATCH_MAX_BYTES } from './data-path/batcher'
import { PARSE_WINDOW } from './data-path/flow-control'
import { CHANNEL_READ_AHEAD, MIN_READ_AHEAD } from './data-path/read-ahead'
import type { TerminalStats } from './data-path/terminal-session'
import { MIN_PACED_WINDOW, MIN_WINDOW, SSH2_WINDOW } from './data-path/receive-window'
import { ROUND_TRIP_PROBES, probeRoundTrips } from './data-path/round-trip'
import type { SshLinksOptions } from './links/links'
import { opensshAvailable } from './testing/openssh-server'
import { useOpenSshServer } from './testing/use-openssh-server'
import { opensshTerminals } from './testing/openssh-terminals'
import { lowest } from '../../shared/extremes'

describe.skipIf(!opensshAvailable())('SSH against OpenSSH', () => {
  const sshd = useOpenSshServer('cloudtray-ssh-test-')
  const openTerminals = opensshTerminals(sshd)
  const setup = (links: Partial<SshLinksOptions> = {}, appKnownHosts?: string) =>
    openTerminals({ links, ...(appKnownHosts ? { appKnownHosts } : {}) })

  function fingerprintOf(pubFile: string): string {
    return execFileSync('ssh-keygen', ['-lf', pubFile], { encoding: 'utf8' }).split(' ')[1] as string
  }

  it('asks about an unknown host with its SHA256 fingerprint, remembers it, and echoes through a shell', async () => {
    const { harness, terminals, home } = setup()
    const { terminalId } = terminals.open('i-1', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    const hostPrompt = harness.prompts.find((prompt) => prompt.kind === 'host-key')
    expect(hostPrompt).toMatchObject({ kind: 'host-key', host: '127.0.0.1', port: sshd.server.port, keyType: 'ssh-ed25519' })
    expect(hostPrompt && 'fingerprint' in hostPrompt ? hostPrompt.fingerprint : '').toBe(fingerprintOf(`${sshd.server.hostKeyPath}.pub`))
    const remembered = readFileSync(join(home, 'app-known_hosts'), 'utf8')
    expect(remembered).toBe(
      `[127.0.0.1]:${sshd.server.port} ssh-ed25519 ${sshd.server.hostPublicKey().keyBase64} cloud-tray-instance=i-1\n`
    )

    terminals.input(terminalId, 'echo $((6*7))\n', harness.clientId)
    await harness.waitForOutput(terminalId, /[\r\n]42\r\n/)
    expect(harness.misrouted).toEqual([])
    // Plain Uint8Arrays, not Buffers: a Buffer turns into {type, data} under JSON.stringify.
    expect(harness.dataTypes).toEqual(new Set(['Uint8Array']))

    // A second app session with the same known_hosts does not ask again.
    const again = setup({}, join(home, 'app-known_hosts'))
    const second = again.terminals.open('i-1', 80, 24, again.harness.clientId)
    await again.harness.waitForState(second.terminalId, 'connected')
    expect(again.harness.prompts).toEqual([])
  })

  it('shares one connection between tabs and sends window-change on resize', async () => {
    const { harness, terminals, links } = setup()
    const first = terminals.open('i-2', 80, 24, harness.clientId)
    const second = terminals.open('i-2', 80, 24, harness.clientId)
    await harness.waitForState(first.terminalId, 'connected')
    await harness.waitForState(second.terminalId, 'connected')
    expect(harness.prompts.filter((prompt) => prompt.kind === 'host-key')).toHaveLength(1)
    const connection = links.connectionOf('i-2')
    expect(connection).toBeDefined()

    terminals.resize(second.terminalId, 132, 43, harness.clientId)
    terminals.input(second.terminalId, 'stty size\n', harness.clientId)
    await harness.waitForOutput(second.terminalId, '43 132')

    // Reconnect on a live tab gives it a new shell and leaves the other tab's shell alone.
    terminals.input(second.terminalId, 'echo pid-$$-end\n', harness.clientId)
    await harness.waitForOutput(second.terminalId, /pid-\d+-end\r\n/)
    const pid = /pid-(\d+)-end\r\n/.exec(harness.output(second.terminalId))![1]
    terminals.reconnect(first.terminalId, harness.clientId)
    await harness.waitFor(() => harness.lastStatus(first.terminalId)?.message === 'reconnected', 'a new shell in the first tab')
    expect(links.connectionOf('i-2')).toBe(connection)
    harness.clearOutput(second.terminalId)
    terminals.input(second.terminalId, 'echo pid-$$-end\n', harness.clientId)
    await harness.waitForOutput(second.terminalId, `pid-${pid}-end`)

    // Closing one tab keeps the connection for the other; closing the last ends it.
    terminals.close(first.terminalId, harness.clientId)
    expect(links.connectionOf('i-2')).toBe(connection)
    terminals.close(second.terminalId, harness.clientId)
    expect(links.connectionOf('i-2')).toBeUndefined()
  })

  it('reports an exec exit code', async () => {
    const { harness, terminals, links } = setup()
    const { terminalId } = terminals.open('i-3', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    const channel = await links.connectionOf('i-3')!.exec('echo out; exit 7')
    const code = await new Promise<number>((resolve) => {
      channel.on('exit', (exitCode: number) => resolve(exitCode))
      channel.resume()
    })
    expect(code).toBe(7)
  })

  it('measures the round trip with probes sshd refuses, leaving the connection as it was', async () => {
    const { harness, terminals, links } = setup()
    const { terminalId } = terminals.open('i-3', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    const connection = links.connectionOf('i-3')!
    const roundTrips = await probeRoundTrips(connection.client, (ms) => connection.noteRoundTrip(ms))
    expect(roundTrips).toHaveLength(ROUND_TRIP_PROBES)
    expect(connection.roundTripMs).toBeLessThanOrEqual(lowest(roundTrips)!)
    terminals.input(terminalId, 'echo still-$((6*7))\n', harness.clientId)
    await harness.waitForOutput(terminalId, 'still-42')
  })

  it('asks for the passphrase of an encrypted key, again when it is wrong, and keeps it for the session', async () => {
    const encrypted = sshd.server.addUserKey('enc-key', 'correct horse')
    const { harness, terminals } = setup({ settingsKeyFile: () => encrypted })
    const answers = ['wrong', 'correct horse']
    harness.answerPrompt = (prompt) => {
      if (prompt.kind === 'host-key') return { kind: 'host-key', decision: 'accept-once' }
      if (prompt.kind === 'passphrase') return { kind: 'secret', values: [answers.shift() ?? ''] }
      return { kind: 'cancel' }
    }
    const { terminalId } = terminals.open('i-4', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    const passphrasePrompts = harness.prompts.filter((prompt) => prompt.kind === 'passphrase')
    expect(passphrasePrompts).toMatchObject([
      { kind: 'passphrase', keyFile: encrypted, retry: false },
      { kind: 'passphrase', keyFile: encrypted, retry: true }
    ])
    // The passphrase never travels in an event.
    expect(JSON.stringify(harness.statuses)).not.toContain('correct horse')

    // A second tab after the first connection ended: no new passphrase prompt (kept in memory).
    terminals.close(terminalId, harness.clientId)
    const next = terminals.open('i-4', 80, 24, harness.clientId)
    await harness.waitForState(next.terminalId, 'connected')
    expect(harness.prompts.filter((prompt) => prompt.kind === 'passphrase')).toHaveLength(2)
  })

  it('authenticates through ssh-agent', async () => {
    const socket = join(sshd.scratch, 'agent.sock')
    const agent: ChildProcess = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' })
    try {
      for (let i = 0; i < 100 && !existsSync(socket); i++) await new Promise((resolve) => setTimeout(resolve, 20))
      const agentOnly = sshd.server.addUserKey('agent-key')
      execFileSync('ssh-add', [agentOnly], { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'ignore' })
      const { harness, terminals } = setup({ agent: socket, settingsKeyFile: () => null })
      const { terminalId } = terminals.open('i-5', 80, 24, harness.clientId)
      await harness.waitForState(terminalId, 'connected')
      expect(harness.prompts.map((prompt) => prompt.kind)).toEqual(['host-key'])
      terminals.input(terminalId, 'echo agent-$((2+3))\n', harness.clientId)
      await harness.waitForOutput(terminalId, 'agent-5')
    } finally {
      agent.kill()
    }
  })

  it('fails without retrying when no key is accepted', async () => {
    const stranger = join(sshd.scratch, 'stranger-key')
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', stranger])
    const { harness, terminals, manual } = setup({ settingsKeyFile: () => stranger })
    harness.answerPrompt = (prompt) => (prompt.kind === 'host-key' ? { kind: 'host-key', decision: 'accept-once' } : { kind: 'cancel' })
    const { terminalId } = terminals.open('i-6', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'failed')
    // The password prompt (the server offers none) was never asked; no retry is scheduled.
    expect(harness.lastStatus(terminalId)).toMatchObject({ needsUser: true })
    expect(harness.lastStatus(terminalId)?.message).toMatch(/did not accept any of your keys/)
    // #15: a real cloud's instance (not the Sandbox) takes only keys registered before it was created.
    expect(harness.lastStatus(terminalId)?.message).toMatch(/registered in the console \(SSH keys\) before it was created/)
    manual.advance(120_000)
    expect(harness.lastStatus(terminalId)?.state).toBe('failed')
  })

  it('refuses a changed host key with both fingerprints until the old key is forgotten', async () => {
    const { harness, terminals, links, home } = setup()
    const other = join(sshd.scratch, 'other-host-key')
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other])
    const otherKey = readFileSync(`${other}.pub`, 'utf8').trim().split(' ')[1]
    mkdirSync(join(home, '.ssh'), { recursive: true })
    // Recorded by OpenSSH in the user's own known_hosts, hashed as `HashKnownHosts yes` writes it.
    writeFileSync(join(home, '.ssh', 'known_hosts'), `[127.0.0.1]:${sshd.server.port} ssh-ed25519 ${otherKey}\n`)
    execFileSync('ssh-keygen', ['-H', '-f', join(home, '.ssh', 'known_hosts')], { stdio: 'ignore' })
    expect(readFileSync(join(home, '.ssh', 'known_hosts'), 'utf8')).toMatch(/^\|1\|/)

    const { terminalId } = terminals.open('i-7', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'failed')
    const warning = harness.prompts.find((prompt) => prompt.kind === 'host-key-changed')
    expect(warning).toMatchObject({
      kind: 'host-key-changed',
      oldFingerprint: fingerprintOf(`${other}.pub`),
      newFingerprint: fingerprintOf(`${sshd.server.hostKeyPath}.pub`),
      knownHostsFile: join(home, '.ssh', 'known_hosts')
    })
    expect(harness.lastStatus(terminalId)).toMatchObject({ needsUser: true })
    expect(harness.lastStatus(terminalId)?.message).toContain(fingerprintOf(`${other}.pub`))
    expect(harness.prompts.some((prompt) => prompt.kind === 'host-key')).toBe(false)

    await links.forgetHostKey('127.0.0.1', sshd.server.port)
    expect(existsSync(join(home, '.ssh', 'known_hosts.old'))).toBe(true)
    terminals.reconnect(terminalId, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    expect(harness.prompts.filter((prompt) => prompt.kind === 'host-key')).toHaveLength(1)
  })

  it('asks again, not warns, when an address the app trusted for another instance is given to a new one', async () => {
    // The cloud gives a terminated instance's region host and node port to a later instance.
    const { harness, terminals, home } = setup()
    const gone = join(sshd.scratch, 'gone-instance-host-key')
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', gone])
    const goneKey = readFileSync(`${gone}.pub`, 'utf8').trim().split(' ')[1]
    const appFile = join(home, 'app-known_hosts')
    writeFileSync(appFile, `[127.0.0.1]:${sshd.server.port} ssh-ed25519 ${goneKey} cloud-tray-instance=i-gone\n`)

    const { terminalId } = terminals.open('i-new', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    expect(harness.prompts.map((prompt) => prompt.kind)).toEqual(['host-key'])
    // Only the new machine's key stays: the old one must not pass for this address any more.
    expect(readFileSync(appFile, 'utf8')).toBe(
      `[127.0.0.1]:${sshd.server.port} ssh-ed25519 ${sshd.server.hostPublicKey().keyBase64} cloud-tray-instance=i-new\n`
    )
  })

  it('still refuses a changed key from the same instance, and from an address recorded without one', async () => {
    const other = join(sshd.scratch, 'same-instance-other-key')
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other])
    const otherKey = readFileSync(`${other}.pub`, 'utf8').trim().split(' ')[1]
    for (const comment of [' cloud-tray-instance=i-same', '']) {
      const { harness, terminals, home } = setup()
      writeFileSync(join(home, 'app-known_hosts'), `[127.0.0.1]:${sshd.server.port} ssh-ed25519 ${otherKey}${comment}\n`)
      const { terminalId } = terminals.open('i-same', 80, 24, harness.clientId)
      await harness.waitForState(terminalId, 'failed')
      expect(harness.prompts.map((prompt) => prompt.kind)).toEqual(['host-key-changed'])
    }
  })

  it('notices a sshd.server that stops answering through keepalive', async () => {
    const { harness, terminals } = setup({ keepaliveIntervalMs: 100, keepaliveCountMax: 3 })
    const { terminalId } = terminals.open('i-8', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    sshd.server.freeze()
    try {
      await harness.waitForState(terminalId, 'reconnecting', 5_000)
      expect(harness.lastStatus(terminalId)?.message).toMatch(/^connection lost — reconnecting in 1 s \(.*keepalive/)
    } finally {
      sshd.server.thaw()
    }
  })

  it('reconnects with backoff after the sshd.server restarts, in the same tab', async () => {
    const { harness, terminals, manual } = setup()
    const { terminalId } = terminals.open('i-9', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    await sshd.server.stop()
    await harness.waitForState(terminalId, 'reconnecting')
    expect(harness.lastStatus(terminalId)?.message).toMatch(/^connection lost — reconnecting in 1 s/)

    // The first retry finds the server still down and backs off to 2 s.
    manual.advance(1_000)
    await harness.waitFor(() => /reconnecting in 2 s/.test(harness.lastStatus(terminalId)?.message ?? ''), 'second backoff')

    await sshd.server.start()
    manual.advance(2_000)
    await harness.waitFor(() => harness.lastStatus(terminalId)?.message === 'reconnected', 'reconnected')
    harness.clearOutput(terminalId)
    terminals.input(terminalId, 'echo back-$((40+2))\n', harness.clientId)
    await harness.waitForOutput(terminalId, 'back-42')
  })

  /** ssh2's packet size (lib/Channel.js; not exported). */
  const SSH2_MAX_PACKET = 32 * 1024

  /**
   * A `yes` flood read by a slow consumer: 16 KiB acknowledged every 5 ms (~3 MB/s, `yes`'s pace
   * in the xterm bench), each ack with `parseMs` when the consumer says how long xterm took, until
   * 4 MiB went through. `each` sees the stats after every ack. Answers the most ssh2 read ahead
   * once its first 2 MiB grant (which cannot be taken back) was used.
   */
  async function slowYesFlood(instanceId: string, parseMs: number | undefined, each: (stats: TerminalStats) => void = () => {}) {
    const { harness, terminals } = setup()
    harness.autoAck = false
    const { terminalId } = terminals.open(instanceId, 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    terminals.input(terminalId, 'yes\n', harness.clientId)
    let acked = 0
    let mostReadAhead = 0
    const deadline = Date.now() + 15_000
    while (acked < 4 * 1024 * 1024 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5))
      acked += harness.ackPending(terminalId, 16 * 1024, parseMs)
      const stats = terminals.stats(terminalId)!
      each(stats)
      if (acked > SSH2_WINDOW + PARSE_WINDOW.max + CHANNEL_READ_AHEAD) mostReadAhead = Math.max(mostReadAhead, stats.readAhead)
    }
    expect(acked).toBeGreaterThanOrEqual(4 * 1024 * 1024)
    expect(mostReadAhead).toBeGreaterThan(0)
    /** Ctrl-C; the consumer keeps up again, and the shell answers the next command. */
    const interruptAndRun = async (sum: number): Promise<void> => {
      terminals.input(terminalId, '\x03', harness.clientId)
      harness.autoAck = true
      harness.ackPending(terminalId)
      terminals.input(terminalId, `echo done_$((${sum - 1}+1))\n`, harness.clientId)
      await harness.waitForOutput(terminalId, new RegExp(`done_${sum}\\r?\\n`), 15_000)
    }
    return { terminals, terminalId, mostReadAhead, interruptAndRun }
  }

  it('bounds unacknowledged bytes under a `yes` flood with a slow consumer, and Ctrl-C brings the prompt back', async () => {
    let sawPause = false
    const { terminals, terminalId, mostReadAhead, interruptAndRun } = await slowYesFlood('i-10', undefined, (stats) => {
      sawPause ||= stats.paused
      expect(stats.unacknowledged).toBeLessThanOrEqual(PARSE_WINDOW.max + BATCH_MAX_BYTES)
    })
    // While paused, ssh2 reads ahead at most its mark plus what the receive window still allowed:
    // on loopback the smallest window (ssh2's own would let ~2 MiB more queue behind a Ctrl-C).
    expect(mostReadAhead).toBeLessThanOrEqual(CHANNEL_READ_AHEAD + MIN_WINDOW + SSH2_MAX_PACKET)
    expect(sawPause).toBe(true)
    // Acks of 16 KiB say xterm parses little per slice: the window has shrunk to a few of them.
    expect(terminals.stats(terminalId)!.window).toBeLessThanOrEqual(PARSE_WINDOW.initial / 4)
    expect(terminals.stats(terminalId)!.peak).toBeLessThanOrEqual(PARSE_WINDOW.max + BATCH_MAX_BYTES)

    await interruptAndRun(2)
    expect(terminals.stats(terminalId)!.peak).toBeLessThanOrEqual(PARSE_WINDOW.max + BATCH_MAX_BYTES)
  })

  it("sizes ssh2's read-ahead and the receive window by xterm's parse speed: a `yes` flood queues less behind a Ctrl-C", async () => {
    // The window's renderer says how long xterm took: 5 ms per 16 KiB. Unpaced, ssh2 held up to
    // 64 KiB + the 128 KiB window behind a Ctrl-C.
    const { terminals, terminalId, mostReadAhead, interruptAndRun } = await slowYesFlood('i-10b', 5)
    expect(mostReadAhead).toBeLessThanOrEqual(MIN_READ_AHEAD + MIN_PACED_WINDOW + SSH2_MAX_PACKET)
    // The page's window holds the Ctrl-C budget of that speed, not the old 128 KiB floor.
    expect(terminals.stats(terminalId)!.window).toBeLessThan(MIN_WINDOW)
    await interruptAndRun(5)
  })

  // A command line's sessions (`ssh.open` with `run`, contract-ssh.ts: `cloud-tray ssh`).
  describe('command line sessions', () => {
    /** A rig whose `run` opens `command` as the command line does (`cloud-tray ssh … -- command`): no pty unless asked. */
    function commandLine() {
      const rig = setup()
      const run = (instanceId: string, command: string, pty?: { cols: number; rows: number; term: string }) =>
        rig.terminals.open(instanceId, pty?.cols ?? 80, pty?.rows ?? 24, rig.harness.clientId, undefined, {
          command,
          pty: pty !== undefined,
          ...(pty ? { term: pty.term } : {})
        })
      return { ...rig, run }
    }

    it('passes a command’s exit status, with its stdout and stderr apart', async () => {
      const { harness, terminals, run } = commandLine()
      const { terminalId } = run('i-1', 'echo out; echo err >&2; exit 7')
      await harness.waitForState(terminalId, 'closed')
      expect(harness.lastStatus(terminalId)).toMatchObject({ state: 'closed', exitCode: 7, message: 'command ended (exit 7)' })
      expect(harness.output(terminalId)).toBe('out\n')
      expect(harness.errorOutput(terminalId)).toBe('err\n')
      // A command runs once: there is nothing to reconnect.
      expect(() => terminals.reconnect(terminalId, harness.clientId)).toThrow(/runs once/)
    })

    it('says which signal killed a command', async () => {
      const { harness, run } = commandLine()
      const { terminalId } = run('i-2', 'kill -TERM $$')
      await harness.waitForState(terminalId, 'closed')
      expect(harness.lastStatus(terminalId)).toMatchObject({ signal: 'TERM', message: 'command ended (killed by SIGTERM)' })
      expect(harness.lastStatus(terminalId)!.exitCode).toBeUndefined()
    })

    it('gives a pseudo-terminal of the asked size and TERM only when asked', async () => {
      const { harness, run } = commandLine()
      const withPty = run('i-3', 'stty size; echo $TERM; test -t 0', { cols: 100, rows: 30, term: 'vt100' })
      await harness.waitForState(withPty.terminalId, 'closed')
      expect(harness.output(withPty.terminalId)).toBe('30 100\r\nvt100\r\n')
      expect(harness.lastStatus(withPty.terminalId)!.exitCode).toBe(0)
      const without = run('i-3', 'test -t 0')
      await harness.waitForState(without.terminalId, 'closed')
      expect(harness.lastStatus(without.terminalId)!.exitCode).toBe(1)
    })

    it('takes piped input as bytes, ends it with EOF, and credits what went out', async () => {
      const { harness, terminals, run } = commandLine()
      const { terminalId } = run('i-4', 'od -An -tx1 | tr -d " \\n"; echo')
      await harness.waitForState(terminalId, 'connected')
      const bytes = new Uint8Array([0, 255, 0xc3, 0x28, 10, 13])
      terminals.input(terminalId, bytes, harness.clientId)
      terminals.input(terminalId, 'ok', harness.clientId)
      terminals.eof(terminalId, harness.clientId)
      await harness.waitForState(terminalId, 'closed')
      expect(harness.output(terminalId)).toBe('00ffc3280a0d6f6b\n')
      expect(harness.written.get(terminalId)).toBe(8)
    })

    it('never runs a command again after its connection drops, and keeps a finished one’s link warm', async () => {
      const { harness, links, run } = commandLine()
      const first = run('i-5', 'true')
      await harness.waitForState(first.terminalId, 'closed')
      const warm = links.connectionOf('i-5')
      expect(warm).toBeDefined()
      // The next one runs on the same connection: no new handshake.
      const second = run('i-5', 'echo again')
      await harness.waitForState(second.terminalId, 'closed')
      expect(links.connectionOf('i-5')).toBe(warm)
      expect(harness.output(second.terminalId)).toBe('again\n')

      const long = run('i-5', 'echo started; sleep 30')
      await harness.waitForOutput(long.terminalId, 'started')
      await sshd.server.stop()
      await harness.waitForState(long.terminalId, 'closed')
      expect(harness.lastStatus(long.terminalId)).toMatchObject({
        message: 'the connection to the instance was lost while the command ran'
      })
      expect(harness.lastStatus(long.terminalId)!.exitCode).toBeUndefined()
      // It left the link: nothing is kept retrying on its behalf, so it can never run again.
      await new Promise((resolve) => setImmediate(resolve))
      expect(links.usersOf('i-5')).toBe(0)
      await sshd.server.start()
    })
  })
})
