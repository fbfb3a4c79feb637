/**
 * Persistent terminals against Debian's OpenSSH server: a tab's shell lives in a tmux session of
 * ours, so a counter printing a line every 100 ms keeps running while sshd is killed (every TCP
 * connection dropped) and started again; the tab attaches to the same session and its buffer (a
 * headless xterm, parsed as the renderer parses) shows every tick, with none missing. Without
 * tmux on the server the tab says so, and its scrollback survives the reconnect. tmux as the tab
 * sees it: no status bar, our options on our own server, the user's ~/.tmux.conf read after ours.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { opensshAvailable } from '../testing/openssh-server'
import { COUNTER, lastTick, tickGaps, ticks } from '../testing/counter'
import { opensshTerminals } from '../testing/openssh-terminals'
import { tmuxMissing } from '../testing/tmux'
import { useOpenSshServer } from '../testing/use-openssh-server'
import { OUR_SOCKET } from './remote-scripts'
import { newSessionName } from './session-names'

describe.skipIf(!opensshAvailable() || tmuxMissing())('persistent terminals against OpenSSH', () => {
  const sshd = useOpenSshServer('cloudtray-persist-')
  const setup = opensshTerminals(sshd, { cols: 100, rows: 20 })

  /** tmux on the server, as the sessions see it (their TMUX_TMPDIR and HOME). */
  function serverTmux(args: string[]): string {
    return execFileSync('tmux', args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TMUX_TMPDIR: sshd.server.tmuxDir, HOME: sshd.server.homePath }
    })
  }

  it('keeps a counter running through a dropped connection and re-attaches with no tick missing', async () => {
    const { harness, terminals, links } = setup()
    const name = newSessionName()
    const { terminalId } = terminals.open('i-1', 100, 20, harness.clientId, { socket: 'ours', name })
    await harness.waitForState(terminalId, 'connected')
    expect(harness.lastStatus(terminalId)?.persistence).toEqual({ kind: 'tmux', session: { socket: 'ours', name } })
    terminals.input(terminalId, COUNTER, harness.clientId)
    await harness.waitFor(() => lastTick(harness.screenLines(terminalId)) >= 30, 'tick 30 on screen')

    // Our own tmux server, started with our options: no status bar, the session named ours.
    expect(serverTmux(['-L', OUR_SOCKET, 'list-sessions', '-F', '#{session_name}']).trim()).toBe(name)
    expect(serverTmux(['-L', OUR_SOCKET, 'show-options', '-gv', 'status']).trim()).toBe('off')

    // sshd dies (every TCP connection with it) and comes back on the same port.
    await sshd.server.stop()
    await harness.waitForState(terminalId, 'reconnecting')
    expect(harness.lastStatus(terminalId)?.message).toMatch(/the session keeps running on the instance/)
    const beforeDrop = lastTick(harness.screenLines(terminalId))
    await sshd.server.start()
    links.retryWaitingNow()
    await harness.waitForState(terminalId, 'connected')
    // What ran meanwhile (at least 2 s of ticks) is in the buffer, then live ticks follow.
    await harness.waitFor(() => lastTick(harness.screenLines(terminalId)) >= beforeDrop + 25, 'ticks after the reconnect')
    const numbers = ticks(harness.screenLines(terminalId))
    expect(tickGaps(numbers)).toEqual([])
    expect(numbers.length).toBeGreaterThan(beforeDrop + 20)
    // The same session, not a new one.
    expect(serverTmux(['-L', OUR_SOCKET, 'list-sessions', '-F', '#{session_name}']).trim()).toBe(name)

    // "End it": the session goes from the instance.
    await terminals.close(terminalId, harness.clientId, true)
    expect(() => serverTmux(['-L', OUR_SOCKET, 'has-session', '-t', `=${name}`])).toThrow()
  })

  it('reads the user’s ~/.tmux.conf after our options: a status bar asked for there is shown', async () => {
    const tmuxConf = join(sshd.server.homePath, '.tmux.conf')
    writeFileSync(tmuxConf, 'set -g status on\n')
    try {
      await sshd.server.endTmux()
      mkdirSync(sshd.server.tmuxDir, { recursive: true, mode: 0o700 })
      const { harness, terminals } = setup()
      const name = newSessionName()
      const { terminalId } = terminals.open('i-2', 100, 20, harness.clientId, { socket: 'ours', name })
      await harness.waitForState(terminalId, 'connected')
      terminals.input(terminalId, 'echo attached-$((40+2))\n', harness.clientId)
      await harness.waitFor(() => harness.screenLines(terminalId).some((line) => line.includes('attached-42')), 'the shell in the session')
      expect(serverTmux(['-L', OUR_SOCKET, 'show-options', '-gv', 'status']).trim()).toBe('on')
      await terminals.close(terminalId, harness.clientId, true)
    } finally {
      rmSync(tmuxConf, { force: true })
      await sshd.server.endTmux()
      mkdirSync(sshd.server.tmuxDir, { recursive: true, mode: 0o700 })
    }
  })

  it('without tmux on the server: the tab says so, runs a plain shell, and keeps its scrollback through a reconnect', async () => {
    sshd.server.setTmuxPresent(false)
    await sshd.server.stop()
    await sshd.server.start()
    try {
      const { harness, terminals, links } = setup()
      const { terminalId } = terminals.open('i-3', 100, 20, harness.clientId, { socket: 'ours', name: newSessionName() })
      await harness.waitForState(terminalId, 'connected')
      expect(harness.lastStatus(terminalId)?.persistence).toMatchObject({
        kind: 'plain',
        why: 'no-tmux',
        message: expect.stringContaining('Install tmux on the instance to keep jobs running: `apt-get install tmux`')
      })
      terminals.input(terminalId, 'echo before-$((40+2))\n', harness.clientId)
      await harness.waitFor(() => harness.screenLines(terminalId).some((line) => line.includes('before-42')), 'before-42')

      await sshd.server.stop()
      await harness.waitForState(terminalId, 'reconnecting')
      await sshd.server.start()
      links.retryWaitingNow()
      await harness.waitForState(terminalId, 'connected')
      terminals.input(terminalId, 'echo after-$((40+2))\n', harness.clientId)
      await harness.waitFor(() => harness.screenLines(terminalId).some((line) => line.includes('after-42')), 'after-42')
      // The scrollback from before the drop is still there, above the new shell.
      const lines = harness.screenLines(terminalId)
      expect(lines.findIndex((line) => line.includes('before-42'))).toBeLessThan(lines.findIndex((line) => line.includes('after-42')))

      // Reconnect on a live tab (the button): a new shell in the same tab, scrollback kept.
      terminals.reconnect(terminalId, harness.clientId)
      await harness.waitFor(
        () => harness.statuses.filter((s) => s.terminalId === terminalId && s.state === 'connected').length >= 3,
        'reconnected'
      )
      expect(harness.screenLines(terminalId).some((line) => line.includes('before-42'))).toBe(true)
      await terminals.close(terminalId, harness.clientId)
    } finally {
      sshd.server.setTmuxPresent(true)
      await sshd.server.stop()
      await sshd.server.start()
    }
  })
})
