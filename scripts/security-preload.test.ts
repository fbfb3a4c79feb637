/**
 * Checklist item 20 (do not expose Electron APIs to untrusted content): the real preload, loaded
 * with a recording stand-in for `electron`, must expose exactly `window.cloud = { invoke, send,
 * on }`, reach only the contract's channels, and never hand the page an IpcRendererEvent (which
 * carries `sender`, a way back into ipcRenderer).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { COMMAND_NAMES, EVENT_NAMES, NOTICE_NAMES, commandChannel, eventChannel, noticeChannel } from '../src/shared/contract'

type Listener = (event: unknown, payload: unknown) => void
const electron = vi.hoisted(() => {
  const exposed: [string, unknown][] = []
  const listeners = new Map<string, Set<Listener>>()
  const invoked: [string, unknown][] = []
  const sent: [string, unknown][] = []
  return {
    exposed,
    listeners,
    invoked,
    sent,
    module: {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push([key, api]) },
      ipcRenderer: {
        invoke: async (channel: string, input: unknown) => {
          invoked.push([channel, input])
          return { ok: true, value: 'from main' }
        },
        send: (channel: string, input: unknown) => void sent.push([channel, input]),
        on: (channel: string, listener: Listener) => {
          const set = listeners.get(channel) ?? new Set()
          set.add(listener)
          listeners.set(channel, set)
        },
        removeListener: (channel: string, listener: Listener) => listeners.get(channel)?.delete(listener)
      }
    }
  }
})
vi.mock('electron', () => ({ ...electron.module, default: electron.module }))

interface Bridge {
  invoke: (command: string, input?: unknown) => Promise<unknown>
  send: (notice: string, input: unknown) => unknown
  on: (event: string, listener: (payload: unknown) => void) => () => void
}
let bridge: Bridge

beforeAll(async () => {
  await import('../src/preload/index')
  bridge = electron.exposed[0]?.[1] as Bridge
})

describe('preload', () => {
  it('exposes one key, cloud, holding exactly invoke, send and on', () => {
    expect(electron.exposed.map(([key]) => key)).toEqual(['cloud'])
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on', 'send'])
    expect(typeof bridge.invoke).toBe('function')
    expect(typeof bridge.send).toBe('function')
    expect(typeof bridge.on).toBe('function')
  })

  it('sends a contract notice one way on its own channel, and nothing outside the contract', () => {
    for (const notice of NOTICE_NAMES) expect(bridge.send(notice, { terminalId: 't' })).toBeUndefined()
    bridge.send('evil:channel', {})
    bridge.send('app.info', {})
    expect(electron.sent).toEqual(NOTICE_NAMES.map((notice) => [noticeChannel(notice), { terminalId: 't' }]))
  })

  it('sends a contract command on its own channel and returns main’s answer', async () => {
    const command = COMMAND_NAMES[0]
    await expect(bridge.invoke(command, { a: 1 })).resolves.toEqual({ ok: true, value: 'from main' })
    expect(electron.invoked.at(-1)).toEqual([commandChannel(command), { a: 1 }])
  })

  it('refuses a command outside the contract without touching IPC', async () => {
    const before = electron.invoked.length
    const answer = (await bridge.invoke('evil:channel', {})) as { ok: boolean; error: { kind: string } }
    expect(answer.ok).toBe(false)
    expect(answer.error.kind).toBe('bad-input')
    expect(electron.invoked.length).toBe(before)
  })

  it('delivers event payloads without the IPC event, and unsubscribes', () => {
    const event = EVENT_NAMES[0]
    const received: unknown[][] = []
    const off = bridge.on(event, (...args: unknown[]) => received.push(args))
    const channel = eventChannel(event)
    const fakeIpcEvent = { sender: { send: () => {} } }
    for (const listener of electron.listeners.get(channel) ?? []) listener(fakeIpcEvent, { hello: 1 })
    expect(received).toEqual([[{ hello: 1 }]])
    off()
    expect(electron.listeners.get(channel)?.size ?? 0).toBe(0)
  })

  it('refuses to listen on a channel outside the contract', () => {
    expect(() => bridge.on('evil:channel', () => {})).toThrow()
    expect([...electron.listeners.keys()].every((c) => EVENT_NAMES.some((e) => eventChannel(e) === c))).toBe(true)
  })
})
