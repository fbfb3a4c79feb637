/**
 * Re-attach after a dropped link: a tab whose shell lives in a tmux session of ours prints a
 * timestamped line every 20 ms; sshd is stopped (every TCP connection drops) and started again;
 * from the moment the app's link retries to the moment the tab's xterm (headless, parsed as the
 * renderer parses) shows a line printed after that moment: connect, authenticate, attach, pull
 * the history, draw. The reference is OpenSSH's `ssh -tt host tmux attach` to the same session on
 * the same sshd, timed the same way (spawn → a live line in its output). Best of interleaved
 * rounds; prints both and the ratio; exits 1 above 1.2.
 *
 *   npx tsx bench/reattach.ts [--rounds 5]
 */
import './plays-main'
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { systemClock } from '../src/shared/clock'
import type { KnownHostsStore } from '../src/main/ssh/host-keys/known-hosts-store'
import { OUR_SOCKET } from '../src/main/ssh/sessions/remote-scripts'
import { newSessionName } from '../src/main/ssh/sessions/session-names'
import { runningInstance } from '../src/main/ssh/testing/instance'
import type { OpenSshServer } from '../src/main/ssh/testing/openssh-server'
import { TerminalHarness } from '../src/main/ssh/testing/terminal-harness'
import { openSshClientArgs, runBench, withTrustedSshd } from './run-bench'

const TARGET_RATIO = 1.2
const roundsArg = process.argv.indexOf('--rounds')
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : Number(process.env['BENCH_ROUNDS'] ?? 5)
/** Each line carries the instance's clock in ms (the same machine's): a line after `t0` is live. */
const LIVE = 'while :; do echo "live $(date +%s%3N)"; sleep 0.02; done\n'

/** Whether `text` holds a live line printed at or after `since` (Unix ms). */
function hasLiveLine(text: string, since: number): boolean {
  for (const match of text.matchAll(/live (\d{13})/g)) if (Number(match[1]) >= since) return true
  return false
}

function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const look = (): void => {
      if (check()) return resolve()
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`))
      setTimeout(look, 2)
    }
    look()
  })
}

/** A tab of the app on session `name` (made by it), printing live lines. */
async function appTab(server: OpenSshServer, scratch: string, knownHosts: KnownHostsStore, name: string) {
  const harness = new TerminalHarness()
  harness.useXterm = { cols: 100, rows: 30 }
  const home = join(scratch, 'home')
  mkdirSync(home, { recursive: true })
  const rig = harness.connect({
    clock: systemClock(),
    findInstance: (instanceId) => runningInstance({ instanceId, host: '127.0.0.1', port: server.port, username: server.username }),
    knownHosts,
    homeDir: home,
    settingsKeyFile: () => server.userKeyPath,
    sandboxKeyFile: () => undefined,
    agent: undefined,
    random: () => 0
  })
  const { terminalId } = rig.terminals.open('bench', 100, 30, harness.clientId, { socket: 'ours', name })
  await harness.waitForState(terminalId, 'connected', 20_000)
  rig.terminals.input(terminalId, LIVE, harness.clientId)
  await until(() => hasLiveLine(harness.screenLines(terminalId).join('\n'), Date.now() - 1000), 'the first live line')
  return { harness, rig, terminalId }
}

type Tab = Awaited<ReturnType<typeof appTab>>

/** The link drops (sshd stops) and comes back; timed from the app's retry to a live line in the tab. */
async function viaApp(server: OpenSshServer, tab: Tab): Promise<number> {
  const { harness, rig, terminalId } = tab
  await server.stop()
  await harness.waitForState(terminalId, 'reconnecting', 20_000)
  await server.start()
  const t0 = Date.now()
  const started = performance.now()
  rig.links.retryWaitingNow()
  await until(() => hasLiveLine(harness.screenLines(terminalId).slice(-40).join('\n'), t0), 'a live line in the tab')
  return performance.now() - started
}

/** `ssh -tt host tmux attach` to the same session: spawn → a live line in its output. */
function viaOpenSsh(server: OpenSshServer, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now()
    const started = performance.now()
    const child = spawn('ssh', ['-tt', ...openSshClientArgs(server, '-p'), `tmux -L ${OUR_SOCKET} attach-session -t =${name}`], {
      stdio: ['pipe', 'pipe', 'inherit']
    })
    let text = ''
    let done = false
    child.stdout.on('data', (chunk: Buffer) => {
      text = (text + chunk.toString('utf8')).slice(-8192)
      if (!done && hasLiveLine(text, t0)) {
        done = true
        resolve(performance.now() - started)
        child.kill('SIGTERM')
      }
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (!done) reject(new Error(`ssh exited with ${code} before a live line`))
    })
  })
}

async function main(): Promise<number> {
  return withTrustedSshd('reattach', async (server, scratch, knownHosts) => {
    const name = newSessionName()
    const tab = await appTab(server, scratch, knownHosts, name)
    try {
      let app = Infinity
      let reference = Infinity
      for (let round = 0; round < ROUNDS; round++) {
        const ref = await viaOpenSsh(server, name)
        reference = Math.min(reference, ref)
        const ours = await viaApp(server, tab)
        app = Math.min(app, ours)
        if (process.env['BENCH_DEBUG']) console.log(`  round ${round + 1}: ssh ${ref.toFixed(0)} ms, app ${ours.toFixed(0)} ms`)
      }
      const ratio = app / reference
      console.log(`reattach: the link back → the tab's first live line, best of ${ROUNDS} interleaved rounds`)
      console.log(`  ssh -tt host tmux attach (reference): ${reference.toFixed(0)} ms`)
      console.log(`  app (retry, attach, history, draw):   ${app.toFixed(0)} ms`)
      console.log(`  ratio app/OpenSSH: ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}) ${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'}`)
      return ratio <= TARGET_RATIO ? 0 : 1
    } finally {
      await tab.rig.terminals.close(tab.terminalId, tab.harness.clientId, true).catch(() => undefined)
      tab.rig.dispose()
      await server.endTmux().catch(() => undefined)
    }
  })
}

runBench(main)
