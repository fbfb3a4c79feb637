/** The notification glue against a recording Notification: what it holds, and until when. */
import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import type { AppNotification } from '../../shared/contract'

const shown: FakeNotification[] = []
let activation: ((details: { type: string; arguments: string; actionIndex?: number }) => void) | undefined
class FakeNotification extends EventEmitter {
  static isSupported = (): boolean => true
  static handleActivation = (callback: typeof activation): void => void (activation = callback)
  constructor(readonly options: { id?: string; title: string; body: string; actions?: { type: string; text: string }[] }) {
    super()
    shown.push(this)
  }
  show(): void {}
}
vi.mock('electron', () => ({ Notification: FakeNotification }))
const { createNotificationAdapter } = await import('./notification-adapter')

const note = (id: string): AppNotification => ({
  id,
  kind: 'ready',
  title: `${id} is ready`,
  body: 'Open it from Cloud Tray.',
  instanceId: id
})

/** The cost guard's countdown, with its two choices. */
const countdownNote = (id: string): AppNotification => ({
  ...note(id),
  kind: 'countdown',
  actions: [
    { id: 'keep-running', label: 'Keep running' },
    { id: 'stop-now', label: 'Stop now' }
  ]
})

describe('notification adapter', () => {
  it('holds a notification until it is clicked, closed or failed, and a click opens its instance', () => {
    const clicked: string[] = []
    const adapter = createNotificationAdapter((n) => clicked.push(n.id))
    for (const id of ['a', 'b', 'c', 'd']) adapter.show(note(id))
    expect(adapter.held()).toBe(4)
    shown[0]!.emit('click')
    shown[1]!.emit('close')
    shown[2]!.emit('failed', {}, 'toast could not be shown')
    expect(adapter.held()).toBe(1)
    expect(clicked).toEqual(['a'])
    // Once done, nothing it emits reaches the app (no second open from a late click).
    shown[0]!.emit('click')
    expect(clicked).toEqual(['a'])
  })

  it('macOS: the cost guard’s choices as buttons, each answered by its id; elsewhere a click only', () => {
    const countdown = countdownNote('g')
    const acted: string[] = []
    const mac = createNotificationAdapter(
      () => {},
      (n, action) => acted.push(`${n.id}:${action}`),
      'darwin'
    )
    mac.show(countdown)
    const onMac = shown.at(-1)!
    expect(onMac.options.actions).toEqual([
      { type: 'button', text: 'Keep running' },
      { type: 'button', text: 'Stop now' }
    ])
    onMac.emit('action', {}, 1)
    expect(acted).toEqual(['g:stop-now'])
    expect(mac.held()).toBe(0)

    // Electron 45's index on the event wins over the deprecated positional one.
    mac.show(countdown)
    shown.at(-1)!.emit('action', { actionIndex: 0 }, 1)
    expect(acted).toEqual(['g:stop-now', 'g:keep-running'])

    const linux = createNotificationAdapter(
      () => {},
      (n, action) => acted.push(`${n.id}:${action}`),
      'linux'
    )
    linux.show(countdown)
    expect(shown.at(-1)!.options.actions).toBeUndefined()
  })

  it('Windows: buttons too, and every activation (a click, a button, the Action Center after a timeout) through handleActivation by the toast’s tag', () => {
    const countdown = countdownNote('w')
    const clicked: string[] = []
    const acted: string[] = []
    const win = createNotificationAdapter(
      (n) => clicked.push(n.id),
      (n, action) => acted.push(`${n.id}:${action}`),
      'win32'
    )
    win.show(countdown)
    const toast = shown.at(-1)!
    expect(toast.options).toMatchObject({
      id: 'w',
      actions: [
        { type: 'button', text: 'Keep running' },
        { type: 'button', text: 'Stop now' }
      ]
    })
    // The toast timed out into the Action Center: its object is gone, the click still arrives.
    toast.removeAllListeners()
    activation!({ type: 'action', arguments: 'type=action&action=1&tag=w', actionIndex: 1 })
    activation!({ type: 'click', arguments: 'type=click&tag=w' })
    expect(acted).toEqual(['w:stop-now'])
    expect(clicked).toEqual(['w'])
    // A toast from before a restart: the window opens.
    activation!({ type: 'click', arguments: 'type=click&tag=unknown' })
    expect(clicked).toEqual(['w', 'unknown'])
    expect(win.held()).toBe(0)
  })
})
