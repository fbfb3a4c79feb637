/**
 * The remote scripts' pure parts: what the tmux probe printed, the session list as an instance
 * (maybe a hostile one) prints it, and the escapes that carry a job's command line through tmux
 * and the shell unchanged.
 */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { posixShellMissing, skipBecause } from '../../../shared/node/testing/platform-support'
import { FIELD, octalEscapes, parseProbe, TMUX_CONFIG } from './remote-scripts'
import { parseSessionList } from './tmux-sessions'

describe('the tmux probe’s answer', () => {
  it('reads a version, a missing tmux, one too old, and nothing', () => {
    expect(parseProbe('cloudtray-tmux tmux 3.3a\n')).toEqual({ kind: 'tmux', version: 'tmux 3.3a' })
    expect(parseProbe('Welcome!\ncloudtray-tmux tmux next-3.4\n')).toEqual({ kind: 'tmux', version: 'tmux next-3.4' })
    expect(parseProbe('cloudtray-tmux none\n')).toEqual({ kind: 'none' })
    expect(parseProbe('cloudtray-tmux tmux 2.6\n')).toEqual({ kind: 'too-old', version: 'tmux 2.6' })
    expect(parseProbe('cloudtray-tmux tmux master\n')).toEqual({ kind: 'tmux', version: 'tmux master' })
    expect(parseProbe('bash: sh: command not found\n')).toBeUndefined()
  })
})

describe('our tmux config', () => {
  it('turns off the status bar and the prefix, keeps the scrollback in the terminal, and reads the user’s config last', () => {
    const lines = TMUX_CONFIG.split('\n').filter((line) => line && !line.startsWith('#'))
    expect(lines).toContain('set -g status off')
    expect(lines).toContain('set -g prefix None')
    expect(lines).toContain("set -ga terminal-overrides ',xterm*:smcup@:rmcup@:indn@:Tc'")
    expect(lines.at(-2)).toBe('source-file -q ~/.tmux.conf')
    expect(lines.at(-1)).toBe('source-file -q ~/.config/tmux/tmux.conf')
  })
})

describe('the session list an instance prints', () => {
  const S = (socket: string, line: string): string => ['S', socket, line].join(FIELD)
  const L = (socket: string, id: string, last: string): string => ['L', socket, id, last].join(FIELD)

  it('takes each field as it is, the name as text, and drops what does not fit and the lobbies', () => {
    const stdout = [
      S('ours', '$0 1 1700000000 1700000100 cloudtray-abc123def0'),
      S('ours', '$1 0 1700000000 1700000200 cloudtray-job-zz99yy88xx'),
      S('user', '$0 0 1700000000 1700000300 $(touch /tmp/x) and spaces'),
      S('user', 'not a session line'),
      S('root', '$5 0 1 1 elsewhere'),
      S('user', `$7 0 1 1 ${'n'.repeat(300)}`),
      // A re-attaching tab's client passing through its lobby: ours, not a session to list.
      S('ours', '$9 1 1700000000 1700000400 cloudtray-lobby-0123456789ab'),
      L('ours', '$9', ''),
      L('ours', '$0', 'tick 42\x1b[0m'),
      L('user', '$0', '$ whoami'),
      'garbage'
    ].join('\n')
    expect(parseSessionList(stdout)).toEqual([
      {
        socket: 'ours',
        id: '$1',
        name: 'cloudtray-job-zz99yy88xx',
        attached: 0,
        createdAt: 1_700_000_000_000,
        lastActivityAt: 1_700_000_200_000,
        lastLine: '',
        jobId: 'zz99yy88xx'
      },
      {
        socket: 'ours',
        id: '$0',
        name: 'cloudtray-abc123def0',
        attached: 1,
        createdAt: 1_700_000_000_000,
        lastActivityAt: 1_700_000_100_000,
        lastLine: 'tick 42 [0m'
      },
      {
        socket: 'user',
        id: '$0',
        name: '$(touch /tmp/x) and spaces',
        attached: 0,
        createdAt: 1_700_000_000_000,
        lastActivityAt: 1_700_000_300_000,
        lastLine: '$ whoami'
      }
    ])
  })
})

describe.skipIf(skipBecause(posixShellMissing(), 'octal escapes through sh'))('a job’s command line as octal escapes', () => {
  it('comes back byte for byte from printf %b, whatever it holds', () => {
    for (const text of [
      'sleep 3; exit 7',
      'make;',
      "find . -name '*.py' -exec wc -l {} \\;",
      'echo "$HOME" `id` $(id) ünï €',
      '~/runs/a b'
    ]) {
      const escaped = octalEscapes(text)
      expect(escaped).toMatch(/^(\\0[0-7]{3})+$/)
      expect(execFileSync('sh', ['-c', 'printf "%b" "$1"', 'sh', escaped], { encoding: 'utf8' })).toBe(text)
    }
  })
})
