/**
 * Persistent terminals through the whole core against the Sandbox (the emulator's own SSH
 * servers; their instances run this machine's tmux): a tab runs a counter printing a line every
 * 100 ms; the emulator drops the TCP connection (no SSH goodbye, as a network that goes away);
 * the tab attaches to the same session again and its buffer (a headless xterm fed and
 * acknowledged as the renderer does) shows every tick. Then the core is stopped and started
 * again on the same data folder: the saved tab comes back with its scrollback, attaches to the
 * session, and the counter is still running, still without a gap. Without tmux on the instance
 * the tab says so.
 */
import { describe, expect, it } from 'vitest'
import type { SavedTerminals } from '../../../shared/contract-terminals'
import { posixShellMissing, skipBecause } from '../../../shared/node/testing/platform-support'
import { pollUntil } from '../../../shared/node/testing/poll-until'
import { sandboxTerminals } from '../../testing/sandbox-terminals'
import { COUNTER, lastTick, tickGaps, ticks } from '../testing/counter'
import { tmuxMissing } from '../testing/tmux'

describe.skipIf(skipBecause(posixShellMissing(), 'persistent terminals in the Sandbox') || tmuxMissing())(
  'persistent terminals against the Sandbox',
  { timeout: 90_000 },
  () => {
    const { start: startOn, freshFolder, quit } = sandboxTerminals('cloudtray-persist-core-')
    const start = (dataDir: string, instanceName?: string) => startOn(dataDir, instanceName ? { instanceName } : {})

    it('re-attaches after the server drops the TCP connection, with no tick missing', async () => {
      const { sandbox, view } = await start(await freshFolder(), 'persist-drop')
      const { instanceId } = sandbox
      const opened = await sandbox.call('ssh.open', { instanceId, cols: 100, rows: 20 })
      // The profile keeps sessions (the default): main made one and named it.
      expect(opened.session).toMatchObject({ socket: 'ours', name: expect.stringMatching(/^cloudtray-[a-z0-9]+$/) })
      const { terminalId } = opened
      await view.waitForState(terminalId, 'connected')
      expect(view.lastStatus(terminalId)?.persistence).toEqual({ kind: 'tmux', session: opened.session })
      view.type(terminalId, COUNTER)
      await view.waitFor(() => lastTick(view.lines(terminalId)) >= 20, 'tick 20')

      sandbox.emulator.control.faults.dropSsh(instanceId)
      await view.waitForState(terminalId, 'reconnecting')
      const beforeDrop = lastTick(view.lines(terminalId))
      await view.waitForState(terminalId, 'connected')
      await view.waitFor(() => lastTick(view.lines(terminalId)) >= beforeDrop + 20, 'ticks after the reconnect')
      expect(tickGaps(ticks(view.lines(terminalId)))).toEqual([])
      const sessions = await sandbox.call('ssh.sessions', { instanceId })
      expect(sessions.filter((each) => each.socket === 'ours').map((each) => each.name)).toEqual([opened.session!.name])
    })

    it('re-attaches while its terminal is held up, and the history still ends where the screen begins', async () => {
      const { sandbox, view } = await start(await freshFolder(), 'persist-held')
      const { instanceId } = sandbox
      const { control } = sandbox.emulator
      const opened = await sandbox.call('ssh.open', { instanceId, cols: 100, rows: 20 })
      const { terminalId } = opened
      await view.waitForState(terminalId, 'connected')
      view.type(terminalId, COUNTER)
      await view.waitFor(() => lastTick(view.lines(terminalId)) >= 20, 'tick 20')
      // The session's own last tick, read by the app's session list (an exec, not the held-up terminal).
      const sessionTick = async (): Promise<number> => {
        const sessions = await sandbox.call('ssh.sessions', { instanceId })
        const line = sessions.find((each) => each.name === opened.session!.name)?.lastLine ?? ''
        return lastTick([line])
      }

      // The terminal the tab attaches through next takes no bytes at first (a client that stopped
      // reading): tmux cannot draw the tab's screen while the counter scrolls on. Lines that scroll
      // between the capture of the history and that screen reach the tab from neither.
      await control.faults.stallTerminals(instanceId, true)
      control.faults.dropSsh(instanceId)
      await view.waitForState(terminalId, 'reconnecting')
      const held = async (): Promise<boolean> => (await control.tmuxClients(instanceId)).some((client) => client.held)
      await pollUntil('the tab’s tmux client, attached through the held-up terminal', held)
      const attachedAt = await sessionTick()
      await pollUntil('two ticks scrolled while the terminal is held up', async () => (await sessionTick()) >= attachedAt + 2)
      await control.faults.stallTerminals(instanceId, false)

      await view.waitFor(() => lastTick(view.lines(terminalId)) >= attachedAt + 10, 'ticks after the terminal goes again')
      expect(view.lastStatus(terminalId)?.state).toBe('connected')
      expect(tickGaps(ticks(view.lines(terminalId)))).toEqual([])
      // The lobby the tab's client passed through is gone, and never listed.
      const sessions = await sandbox.call('ssh.sessions', { instanceId })
      expect(sessions.filter((each) => each.socket === 'ours').map((each) => each.name)).toEqual([opened.session!.name])
      expect(await control.tmuxClients(instanceId)).toEqual([expect.objectContaining({ held: false })])
    })

    it('re-attaches at another size: the history still ends where the screen begins', async () => {
      const { sandbox, view } = await start(await freshFolder(), 'persist-resized')
      const { instanceId } = sandbox
      const { terminalId } = await sandbox.call('ssh.open', { instanceId, cols: 100, rows: 20 })
      await view.waitForState(terminalId, 'connected')
      view.type(terminalId, COUNTER)
      await view.waitFor(() => lastTick(view.lines(terminalId)) >= 25, 'tick 25')

      // The window got smaller while the connection was down: tmux's window shrinks when the
      // client attaches, pushing its top lines into the history.
      sandbox.emulator.control.faults.dropSsh(instanceId)
      await view.waitForState(terminalId, 'reconnecting')
      view.resize(terminalId, 100, 15)
      const beforeDrop = lastTick(view.lines(terminalId))
      await view.waitForState(terminalId, 'connected')
      await view.waitFor(() => lastTick(view.lines(terminalId)) >= beforeDrop + 20, 'ticks after the reconnect')
      expect(tickGaps(ticks(view.lines(terminalId)))).toEqual([])
    })

    it('comes back after the core is stopped and started again: the tab restored, the counter still running', async () => {
      const dataDir = await freshFolder()
      const first = await start(dataDir, 'persist-restart')
      const { instanceId } = first.sandbox
      const opened = await first.sandbox.call('ssh.open', { instanceId, cols: 100, rows: 20 })
      const saved: SavedTerminals = {
        tabs: [
          {
            tabId: 'tab-1',
            instanceId,
            title: 'training',
            titleByUser: true,
            layout: { kind: 'pane', paneId: 'pane-1' },
            panes: [{ paneId: 'pane-1', instanceId, session: opened.session! }],
            activePaneId: 'pane-1'
          }
        ],
        activeTab: { [instanceId]: 'tab-1' },
        lastInstanceId: instanceId
      }
      await first.sandbox.call('terminals.save', saved)
      await first.view.waitForState(opened.terminalId, 'connected')
      first.view.type(opened.terminalId, COUNTER)
      await first.view.waitFor(() => lastTick(first.view.lines(opened.terminalId)) >= 20, 'tick 20')
      // One reading of the tab for both: ticks keep arriving while the save is answered.
      const shown = first.view.lines(opened.terminalId)
      await first.sandbox.call('terminals.saveScrollback', { paneId: 'pane-1', data: shown.join('\r\n') })
      const beforeStop = lastTick(shown)
      await quit(first.sandbox)

      const second = await start(dataDir)
      const restored = await second.sandbox.call('terminals.restore')
      expect(restored.tabs).toEqual([{ ...saved.tabs[0], account: 'sandbox/demo' }])
      expect(restored.activeTab).toEqual(saved.activeTab)
      expect(restored.scrollback['pane-1']).toContain(`tick ${beforeStop}`)
      const again = await second.sandbox.call('ssh.open', { instanceId, cols: 100, rows: 20, session: opened.session })
      await second.view.waitForState(again.terminalId, 'connected')
      await second.view.waitFor(() => lastTick(second.view.lines(again.terminalId)) >= beforeStop + 20, 'the counter, still running')
      const numbers = ticks(second.view.lines(again.terminalId))
      expect(tickGaps(numbers)).toEqual([])
      expect(numbers[0]).toBe(1)
    })

    it('without tmux on the instance: the tab says so and runs a plain shell', async () => {
      const { sandbox, view } = await start(await freshFolder(), 'persist-none')
      await sandbox.emulator.control.faults.tmux(sandbox.instanceId, 'missing')
      const { terminalId } = await sandbox.call('ssh.open', { instanceId: sandbox.instanceId, cols: 100, rows: 20 })
      await view.waitForState(terminalId, 'connected')
      expect(view.lastStatus(terminalId)?.persistence).toEqual({
        kind: 'plain',
        why: 'no-tmux',
        message: 'This tab ends if the connection drops. Install tmux on the instance to keep jobs running: `apt-get install tmux`.'
      })
      view.type(terminalId, 'echo plain-$((40+2))\n')
      await view.waitFor(() => view.lines(terminalId).some((line) => line.includes('plain-42')), 'plain-42')
    })
  }
)
