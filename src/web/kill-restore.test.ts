/**
 * `kill -9` of the web shell (the app's core and its Sandbox in one process) while a tab runs a
 * counter: started again on the same data folder, the window's saved tab is there, attaches to
 * the same tmux session (which outlived the process, as a job on an instance outlives the
 * laptop), and the counter is still running with no tick missing in the tab's buffer.
 *
 * The page is the renderer's own transport (createWsBridge) in Node, feeding a headless xterm and
 * acknowledging what it parsed, as a tab does.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { CommandName, CommandResult } from '../shared/contract'
import type { SessionRef } from '../shared/contract-ssh'
import { posixShellMissing, skipBecause } from '../shared/node/testing/platform-support'
import { pollUntil } from '../shared/node/testing/poll-until'
import { COUNTER, lastTick, tickGaps, ticks } from '../main/ssh/testing/counter'
import { HeadlessScreens } from '../main/ssh/testing/headless-screens'
import { tmuxMissing } from '../main/ssh/testing/tmux'
import { createWsBridge, fetchDownlink, type WebSocketLike, type WsBridge } from '../renderer/src/lib/transport-ws'

const ENTRY = join(import.meta.dirname, 'testing', 'web-shell-process.ts')

interface Shell {
  child: ChildProcess
  url: string
  origin: string
}

/** Starts the web shell in its own process; resolves with its address once it prints it. */
async function startShell(dataDir: string): Promise<Shell> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout! })
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the web shell exited (${code}) before it listened`)))
    lines.on('line', (line) => {
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/#secret=\w+)/.exec(line)
      if (match) resolve(match[1]!)
    })
  })
  return { child, url, origin: new URL(url).origin }
}

/** A page of the shell: its bridge, and each terminal's xterm, acknowledged once parsed. */
function openPage(shell: Shell) {
  const bridge: WsBridge = createWsBridge({
    origin: shell.origin.replace('http:', 'ws:'),
    secret: new URL(shell.url).hash.replace('#secret=', ''),
    createSocket: (url, protocols) => new WebSocket(url, protocols, { origin: shell.origin }) as unknown as WebSocketLike,
    openDownlink: fetchDownlink(shell.origin)
  })
  const screens = new HeadlessScreens(() => ({ cols: 100, rows: 20 }))
  const states = new Map<string, string>()
  bridge.on('ssh.data', ({ terminalId, data }) =>
    screens.screen(terminalId).write(data, () => bridge.send('ssh.ack', { terminalId, bytes: data.length }))
  )
  bridge.on('ssh.status', (status) => states.set(status.terminalId, status.state))
  bridge.on('ssh.prompt', (prompt) => {
    if (prompt.kind === 'host-key')
      void bridge.invoke('ssh.answer', { promptId: prompt.promptId, answer: { kind: 'host-key', decision: 'accept-and-remember' } })
  })
  const call = async <C extends CommandName>(command: C, input?: unknown): Promise<CommandResult<C>> => {
    const result = await (
      bridge.invoke as (command: C, input?: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>
    )(command, input)
    if (!result.ok) throw new Error(`${command}: ${result.error?.message}`)
    return result.value as CommandResult<C>
  }
  return { bridge, call, lines: (terminalId: string) => screens.lines(terminalId), states }
}

const until = <T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> =>
  pollUntil(what, probe, { timeoutMs: 30_000 })

describe.skipIf(skipBecause(posixShellMissing(), 'kill -9 of the web shell') || tmuxMissing())(
  'kill -9 of the web shell',
  { timeout: 120_000 },
  () => {
    const shells: Shell[] = []
    let dataDir = ''
    afterAll(async () => {
      for (const shell of shells) {
        if (shell.child.exitCode !== null || shell.child.signalCode !== null) continue
        const exited = new Promise((resolve) => shell.child.once('exit', resolve))
        shell.child.kill('SIGTERM')
        await exited
      }
      if (dataDir) await rm(dataDir, { recursive: true, force: true })
    })

    it('brings the tab back after the process is killed, attached to the same session, the counter running without a gap', async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'cloudtray-kill9-'))
      const first = await startShell(dataDir)
      shells.push(first)
      const page = openPage(first)
      const profiles = await page.call('profiles.get')
      await page.call('session.login', { profileId: 'sandbox', username: 'demo', password: profiles.demoPassword, rememberMe: false })
      // The Sandbox's control plane, with this run's secret, makes a Running instance.
      const control = profiles.sandbox!
      const secret = (await readFile(control.controlSecretFile!, 'utf8')).trim()
      const seeded = await fetch(`${control.controlUrl}/seed`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${secret}` },
        body: JSON.stringify({ username: 'demo', count: 1, name: 'kill-nine' })
      })
      const [instanceId] = ((await seeded.json()) as { instanceIds: string[] }).instanceIds as [string]
      await until('Running', async () =>
        (await page.call('instances.refresh')).instances.some(
          (each) => each.instanceMetadata.instanceId === instanceId && each.instanceRuntimeInfo.status === 'Running'
        )
      )
      const opened = await page.call('ssh.open', { instanceId, cols: 100, rows: 20 })
      const session = opened.session as SessionRef
      await page.call('terminals.save', {
        tabs: [
          {
            tabId: 'tab-1',
            instanceId,
            title: 'kill-nine',
            titleByUser: false,
            layout: { kind: 'pane', paneId: 'pane-1' },
            panes: [{ paneId: 'pane-1', instanceId, session }],
            activePaneId: 'pane-1'
          }
        ],
        activeTab: { [instanceId]: 'tab-1' }
      })
      await until('connected', () => page.states.get(opened.terminalId) === 'connected')
      page.bridge.send('ssh.input', { terminalId: opened.terminalId, data: COUNTER })
      await until('tick 20', () => lastTick(page.lines(opened.terminalId)) >= 20)
      const beforeKill = lastTick(page.lines(opened.terminalId))

      const exited = new Promise((resolve) => first.child.once('exit', resolve))
      first.child.kill('SIGKILL')
      await exited
      page.bridge.close()

      const second = await startShell(dataDir)
      shells.push(second)
      const again = openPage(second)
      await again.call('session.login', { profileId: 'sandbox', username: 'demo', password: profiles.demoPassword, rememberMe: false })
      const restored = await again.call('terminals.restore')
      expect(restored.tabs.map((tab) => tab.panes[0]?.session)).toEqual([session])
      await until('Running again', async () =>
        (await again.call('instances.refresh')).instances.some(
          (each) => each.instanceMetadata.instanceId === instanceId && each.instanceRuntimeInfo.status === 'Running'
        )
      )
      const reopened = await again.call('ssh.open', { instanceId, cols: 100, rows: 20, session })
      await until('connected again', () => again.states.get(reopened.terminalId) === 'connected')
      await until('the counter, still running', () => lastTick(again.lines(reopened.terminalId)) >= beforeKill + 20)
      const numbers = ticks(again.lines(reopened.terminalId))
      expect(tickGaps(numbers)).toEqual([])
      expect(numbers[0]).toBe(1)
      again.bridge.close()
    })
  }
)
