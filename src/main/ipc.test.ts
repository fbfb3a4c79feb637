import { describe, expect, it } from 'vitest'
import { commandChannel, eventChannel, noticeChannel } from '../shared/contract'
import type { AppCore, EventSink } from './core-types'
import { bindIpc, type WebContentsLike } from './ipc'
import { fakeIpcMain } from './testing/ipc-main'

function fakes() {
  const { ipcMain, handlers, listeners } = fakeIpcMain()
  const sinks = new Set<EventSink>()
  const calls: unknown[][] = []
  const core = {
    handle: async (command: string, input: unknown, context: unknown) => {
      calls.push([command, input, context])
      return { ok: true, value: 'answered' }
    },
    notice: (notice: string, input: unknown, context: unknown) => void calls.push([notice, input, context]),
    subscribe: (sink: EventSink) => {
      sinks.add(sink)
      return () => sinks.delete(sink)
    }
  } as unknown as AppCore
  const window = (id: number): WebContentsLike & { sent: unknown[][]; mainFrame: { url: string; parent: null } } => {
    const sent: unknown[][] = []
    const mainFrame = { url: 'app://cloud-tray/index.html', parent: null }
    return { id, sent, mainFrame, isDestroyed: () => false, send: (c, p) => void sent.push([c, p]) }
  }
  return { handlers, listeners, ipcMain, sinks, calls, core, window }
}

/** IPC bound with window 1 as our app's page (its only window) and window 2 a stranger. */
function boundToOurPage() {
  const f = fakes()
  const main = f.window(1)
  const other = f.window(2)
  bindIpc(
    f.core,
    f.ipcMain,
    () => [main],
    () => ({ webContentsIds: new Set([1]), pageUrl: 'app://cloud-tray/index.html' })
  )
  return { ...f, main, other }
}

describe('bindIpc', () => {
  it('answers commands from our page and refuses anything else', async () => {
    const { main, other, ...f } = boundToOurPage()
    const handler = f.handlers.get(commandChannel('session.get'))!
    expect(await handler({ sender: main, senderFrame: main.mainFrame }, undefined)).toEqual({ ok: true, value: 'answered' })
    expect(f.calls).toEqual([['session.get', undefined, { clientId: '1' }]])
    const iframe = { url: 'app://cloud-tray/index.html', parent: main.mainFrame }
    for (const event of [
      { sender: main, senderFrame: iframe },
      { sender: main, senderFrame: null },
      { sender: other, senderFrame: other.mainFrame }
    ]) {
      expect(await handler(event, undefined)).toMatchObject({ ok: false, error: { kind: 'bad-input' } })
    }
    expect(f.calls).toHaveLength(1)
  })

  it('takes notices from our page one way, and drops them from anything else', () => {
    const { main, other, ...f } = boundToOurPage()
    const listener = f.listeners.get(noticeChannel('ssh.input'))!
    expect(listener({ sender: main, senderFrame: main.mainFrame }, { terminalId: 't', data: 'ls' })).toBeUndefined()
    listener({ sender: other, senderFrame: other.mainFrame }, { terminalId: 't', data: 'rm -rf ~' })
    listener({ sender: main, senderFrame: { url: 'app://cloud-tray/index.html', parent: main.mainFrame } }, { terminalId: 't', data: 'x' })
    expect(f.calls).toEqual([['ssh.input', { terminalId: 't', data: 'ls' }, { clientId: '1' }]])
  })

  it('sends events to every app window, or only to the target', () => {
    const f = fakes()
    const a = f.window(1)
    const b = f.window(2)
    const binding = bindIpc(
      f.core,
      f.ipcMain,
      () => [a, b],
      () => ({ webContentsIds: new Set([1, 2]) })
    )
    for (const sink of f.sinks) sink('settings', {} as never)
    for (const sink of f.sinks) sink('ssh.status', { terminalId: 't', state: 'connected', message: '' }, '2')
    expect(a.sent.map(([c]) => c)).toEqual([eventChannel('settings')])
    expect(b.sent.map(([c]) => c)).toEqual([eventChannel('settings'), eventChannel('ssh.status')])
    binding.dispose()
    expect(f.sinks.size).toBe(0)
    expect(f.handlers.size).toBe(0)
    expect(f.listeners.size).toBe(0)
  })
})
