/** A second launch under Wayland: the window shown, and words only when the compositor did not focus it (injected clock, no sleeping). */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import type { AppNotification } from '../../shared/contract'
import { FOCUS_GRACE_MS, noticeAfterGrace, runsUnderWayland, secondLaunchHandler } from './second-launch'

/** Lets the tray host's answer (a resolved promise) arrive. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

function rig(options: { wayland: boolean; trayShown?: boolean }) {
  const clock = new ManualClock()
  const told: AppNotification[] = []
  let shown = 0
  let focused = false
  const handler = secondLaunchHandler({
    wayland: options.wayland,
    clock,
    show: () => void shown++,
    isFocused: () => focused,
    trayShown: async () => options.trayShown ?? true,
    tell: (notification) => void told.push(notification)
  })
  return {
    clock,
    told,
    handler,
    shown: () => shown,
    focus: (on: boolean) => void (focused = on)
  }
}

describe('second launch', () => {
  it('knows a Wayland session by its session type or its display', () => {
    expect(runsUnderWayland({ XDG_SESSION_TYPE: 'wayland' })).toBe(true)
    expect(runsUnderWayland({ XDG_SESSION_TYPE: 'Wayland ' })).toBe(true)
    expect(runsUnderWayland({ WAYLAND_DISPLAY: 'wayland-0' })).toBe(true)
    expect(runsUnderWayland({ XDG_SESSION_TYPE: 'x11', WAYLAND_DISPLAY: 'wayland-1' })).toBe(true)
    expect(runsUnderWayland({ XDG_SESSION_TYPE: 'x11' })).toBe(false)
    expect(runsUnderWayland({ XDG_SESSION_TYPE: 'tty', WAYLAND_DISPLAY: '' })).toBe(false)
    expect(runsUnderWayland({})).toBe(false)
  })

  it('decides: a notice only under Wayland for a window left unfocused, naming the tray when there is one', () => {
    expect(noticeAfterGrace({ wayland: false, focused: false, trayShown: true, now: 1 })).toBeUndefined()
    expect(noticeAfterGrace({ wayland: true, focused: true, trayShown: true, now: 1 })).toBeUndefined()
    expect(noticeAfterGrace({ wayland: true, focused: false, trayShown: true, now: 1 })).toMatchObject({
      kind: 'summary',
      title: 'Cloud Tray',
      body: 'Cloud Tray is already running — open it from the tray icon.'
    })
    // A desktop without tray icons (vanilla GNOME): the window is there, minimized at most.
    expect(noticeAfterGrace({ wayland: true, focused: false, trayShown: false, now: 1 })?.body).toMatch(
      /^Cloud Tray is already running — switch to its window/
    )
  })

  it('under Wayland, a window the compositor did not focus: shown, then the notification once the grace is over', async () => {
    const { clock, told, handler, shown } = rig({ wayland: true })
    handler()
    expect(shown()).toBe(1)
    clock.advance(FOCUS_GRACE_MS - 1)
    await settle()
    expect(told).toEqual([])
    clock.advance(1)
    await settle()
    expect(told.map((n) => n.body)).toEqual(['Cloud Tray is already running — open it from the tray icon.'])
  })

  it('under Wayland, a window that got the focus: nothing said', async () => {
    const { clock, told, handler, focus } = rig({ wayland: true })
    handler()
    focus(true)
    clock.advance(FOCUS_GRACE_MS)
    await settle()
    expect(told).toEqual([])
  })

  it('launches close together make one notification; a later one may make another', async () => {
    const { clock, told, handler, shown } = rig({ wayland: true })
    handler()
    clock.advance(FOCUS_GRACE_MS / 2)
    handler()
    clock.advance(FOCUS_GRACE_MS / 2)
    await settle()
    expect(told).toEqual([])
    clock.advance(FOCUS_GRACE_MS)
    await settle()
    expect(told).toHaveLength(1)
    expect(shown()).toBe(2)
    handler()
    clock.advance(FOCUS_GRACE_MS)
    await settle()
    expect(told).toHaveLength(2)
  })

  it('outside Wayland: shown, no timer, never a notification', async () => {
    const { clock, told, handler, shown } = rig({ wayland: false })
    handler()
    expect(shown()).toBe(1)
    expect(clock.pending).toBe(0)
    clock.advance(10 * FOCUS_GRACE_MS)
    await settle()
    expect(told).toEqual([])
  })
})
