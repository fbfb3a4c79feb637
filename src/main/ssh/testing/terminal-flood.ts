/**
 * A terminal flood through the app's SSH session module and data path (ssh2 channel → flow
 * control → UTF-8 batcher → `ssh.data` events), read from a Debian sshd and acknowledged as a fast
 * renderer would: no decoding, each batch acknowledged at once. `bench/ssh-throughput.ts` times it
 * against OpenSSH's `ssh -tt`; `heap-growth.test.ts` counts the full collections it meets.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { systemClock } from '../../../shared/clock'
import { KnownHostsStore } from '../host-keys/known-hosts-store'
import { runningInstance } from './instance'
import type { OpenSshServer } from './openssh-server'
import { TerminalHarness } from './terminal-harness'

/** The remote command: `bytes` of printable lines, so the PTY and the batcher see ordinary terminal text. */
export const floodCommand = (bytes: number): string => `yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c ${bytes}`

export interface TerminalFlood {
  /** From the first byte of output to the session's end. */
  seconds: number
  bytes: number
  /** The most output unacknowledged at once (flow control's high-water mark). */
  peak: number
  /** This process's CPU time during the flood. */
  cpu: NodeJS.CpuUsage
}

/** Opens a terminal on `server` (a home in `scratch`), runs `floodCommand(bytes)` as its shell's last command, and answers when it closed. */
export async function floodThroughApp(server: OpenSshServer, scratch: string, bytes: number): Promise<TerminalFlood> {
  const harness = new TerminalHarness()
  const home = join(scratch, 'home')
  mkdirSync(home, { recursive: true })
  const rig = harness.connect({
    clock: systemClock(),
    findInstance: (instanceId) => runningInstance({ instanceId, host: '127.0.0.1', port: server.port, username: server.username }),
    knownHosts: new KnownHostsStore(join(scratch, 'known_hosts'), undefined),
    homeDir: home,
    settingsKeyFile: () => server.userKeyPath,
    sandboxKeyFile: () => undefined,
    agent: undefined
  })
  const { terminals } = rig
  harness.answerPrompt = (prompt) => (prompt.kind === 'host-key' ? { kind: 'host-key', decision: 'accept-once' } : undefined)
  harness.onBytes = () => {}
  try {
    const { terminalId } = terminals.open('flood', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected', 20_000)
    const before = harness.bytesReceived
    // Timed from the first byte of output, so the session's handshake does not count.
    let started = 0
    harness.onBytes = () => {
      started ||= performance.now()
    }
    const cpu = process.cpuUsage()
    terminals.input(terminalId, `exec sh -c "${floodCommand(bytes)}"\n`, harness.clientId)
    await harness.waitForState(terminalId, 'closed', 600_000)
    return {
      seconds: (performance.now() - started) / 1000,
      bytes: harness.bytesReceived - before,
      peak: terminals.stats(terminalId)?.peak ?? 0,
      cpu: process.cpuUsage(cpu)
    }
  } finally {
    rig.dispose()
  }
}
