/**
 * Nothing from the server reaches a shell command line unquoted. The user's own tmux sessions
 * have names Cloud Tray did not choose; one named `$(touch …)` is listed as that text, attached
 * to and ended, and the file it names is never made: names are shown as text, matched in the
 * app, and the session is targeted by the id tmux gave it (a name starting with `$` would even be
 * read by tmux as an id). Our own names are checked wherever one comes back.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { opensshAvailable } from '../testing/openssh-server'
import { opensshTerminals } from '../testing/openssh-terminals'
import { tmuxMissing } from '../testing/tmux'
import { useOpenSshServer } from '../testing/use-openssh-server'
import { remoteCommand } from './remote-scripts'

describe.skipIf(!opensshAvailable() || tmuxMissing())('the user’s own tmux sessions, by untrusted names', () => {
  const sshd = useOpenSshServer('cloudtray-names-')

  const openTerminals = opensshTerminals(sshd, { cols: 100, rows: 20 })
  const setup = () => openTerminals({ home: 'home' })

  /** The user's default tmux server on the instance, as the user would drive it by hand. */
  function userTmux(args: string[]): string {
    return execFileSync('tmux', args, {
      encoding: 'utf8',
      env: { ...process.env, TMUX_TMPDIR: sshd.server.tmuxDir, HOME: sshd.server.homePath }
    })
  }

  it('lists, attaches to and ends a session named $(touch …) without ever running it', async () => {
    const marker = join(sshd.scratch, 'x')
    const names = [`$(touch ${marker})`, '$(touch /tmp/x)', `\`touch ${marker}\`; touch ${marker}`]
    const tmpXBefore = existsSync('/tmp/x')
    for (const name of names) userTmux(['new-session', '-d', '-s', name, 'sh', '-c', `echo "inside ${name.length}"; exec sh`])
    const { harness, terminals } = setup()
    // A terminal first: the host key is trusted from a window (the list's exec never asks).
    const plain = terminals.open('i-1', 80, 24, harness.clientId)
    await harness.waitForState(plain.terminalId, 'connected')

    const listed = await terminals.tmux.list('i-1')
    expect(
      listed
        .filter((each) => each.socket === 'user')
        .map((each) => each.name)
        .sort()
    ).toEqual([...names].sort())
    for (const each of listed) expect(each.id).toMatch(/^\$\d+$/)

    const { terminalId } = terminals.open('i-1', 100, 20, harness.clientId, { socket: 'user', name: names[0]! })
    await harness.waitForState(terminalId, 'connected')
    expect(harness.lastStatus(terminalId)?.persistence).toEqual({ kind: 'tmux', session: { socket: 'user', name: names[0] } })
    await harness.waitFor(
      () => harness.screenLines(terminalId).some((line) => line.includes(`inside ${names[0]!.length}`)),
      'the session’s own screen'
    )
    terminals.input(terminalId, 'echo attached-$((40+2))\n', harness.clientId)
    await harness.waitFor(() => harness.screenLines(terminalId).some((line) => line.includes('attached-42')), 'a shell in that session')

    await terminals.close(terminalId, harness.clientId, true)
    for (const name of names.slice(1)) await terminals.tmux.end('i-1', { socket: 'user', name })
    expect((await terminals.tmux.list('i-1')).filter((each) => each.socket === 'user')).toEqual([])
    expect(existsSync(marker)).toBe(false)
    expect(existsSync('/tmp/x')).toBe(tmpXBefore)
  })

  it('refuses a name of ours that is not one of ours, before anything reaches the instance', () => {
    const { harness, terminals } = setup()
    for (const name of ['cloudtray-$(id)', 'cloudtray-a;b', 'mine', 'cloudtray-ABC123'])
      expect(() => terminals.open('i-1', 80, 24, harness.clientId, { socket: 'ours', name })).toThrow(/not a session Cloud Tray made/)
  })

  it('quotes every argument of a remote command for a POSIX shell', () => {
    const command = remoteCommand('printf %s "$1"', [`a'b $(touch /tmp/x) \`x\``])
    expect(execFileSync('sh', ['-c', command], { encoding: 'utf8' })).toBe(`a'b $(touch /tmp/x) \`x\``)
  })
})
