/**
 * A second launch of the app (Electron's `second-instance`): the running app shows its window.
 * On X11, macOS and Windows that raises and focuses it. A Wayland compositor decides focus itself
 * and may refuse a window that asks without an activation token from the launch (GNOME maps it
 * behind, or only flashes it in the dock), so to the user nothing happens and the app seems not
 * to start. There, if the window has not been focused FOCUS_GRACE_MS after it was shown, a
 * notification says where the app is. Pure but for the injected clock and callbacks.
 */
import type { Clock, TimerHandle } from '../../shared/clock'
import type { AppNotification } from '../../shared/contract'

/**
 * How long the compositor gets to focus the shown window before the app tells the user where it
 * is: one that grants focus does so within a few frames of the window mapping (a window whose page
 * is still loading shows at ready-to-show, a moment later); longer and the user has given up.
 */
export const FOCUS_GRACE_MS = 1_500

/** Whether the app runs in a Wayland session: its session type, or a Wayland display to connect to. */
export function runsUnderWayland(env: Readonly<Record<string, string | undefined>>): boolean {
  return env['XDG_SESSION_TYPE']?.trim().toLowerCase() === 'wayland' || Boolean(env['WAYLAND_DISPLAY'])
}

/** What the notification says: where to find the app, whether this desktop shows tray icons (tray-host.ts) or not. */
export function alreadyRunningNotice(trayShown: boolean, now: number): AppNotification {
  return {
    id: `already-running-${now}`,
    kind: 'summary',
    title: 'Cloud Tray',
    body: trayShown
      ? 'Cloud Tray is already running — open it from the tray icon.'
      : 'Cloud Tray is already running — switch to its window from the overview or the taskbar.'
  }
}

/**
 * The decision, once the grace is over: a notice only under Wayland and only when the window did
 * not get the focus (a compositor that raised it needs no words).
 */
export function noticeAfterGrace(facts: {
  wayland: boolean
  focused: boolean
  trayShown: boolean
  now: number
}): AppNotification | undefined {
  return facts.wayland && !facts.focused ? alreadyRunningNotice(facts.trayShown, facts.now) : undefined
}

export interface SecondLaunchOptions {
  /** runsUnderWayland(process.env), read once at start. */
  wayland: boolean
  clock: Clock
  /** Shows and focuses the app window (main-window-adapter.ts). */
  show(): void
  /** Whether the app window has the focus now. */
  isFocused(): boolean
  /** Whether this desktop shows tray icons (tray-host.ts). */
  trayShown(): Promise<boolean>
  /** The app's notification path (index.ts: the notification adapter, through osSafeNotification). */
  tell(notification: AppNotification): void
}

/**
 * The `second-instance` handler: shows the window; under Wayland looks again FOCUS_GRACE_MS later
 * and tells the user when the window is still not focused. Launches close together are one look
 * (the grace starts again), so they make at most one notification.
 */
export function secondLaunchHandler(options: SecondLaunchOptions): () => void {
  const { clock } = options
  let pending: TimerHandle | undefined
  return () => {
    options.show()
    if (!options.wayland) return
    clock.clearTimeout(pending)
    pending = clock.setTimeout(() => {
      pending = undefined
      if (options.isFocused()) return
      void options
        .trayShown()
        .catch(() => false)
        .then((trayShown) => {
          // Focused meanwhile (the tray host's answer takes a D-Bus round trip): nothing to say.
          const notice = noticeAfterGrace({ wayland: true, focused: options.isFocused(), trayShown, now: clock.now() })
          if (notice) options.tell(notice)
        })
    }, FOCUS_GRACE_MS)
  }
}
