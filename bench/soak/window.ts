/**
 * The soak's window: it hears every event the core sends, serialises each as the web shell's
 * transport would (an event that cannot be sent is one the window lost), reads its terminals'
 * bytes and acknowledges them as xterm would, and signs in again when the session expires, as a
 * user would. It counts what the report needs.
 */
import type { EventName, Events } from '../../src/shared/contract'
import type { AppCore, ClientId } from '../../src/main/core-types'
import { HeadlessScreens, screenLines, type ScreenSize } from '../../src/main/ssh/testing/headless-screens'

export const WINDOW: ClientId = 'soak-window'

export class SoakWindow {
  readonly events = new Map<EventName, number>()
  lost = 0
  largestEvent = { event: '', bytes: 0 }
  /**
   * Each terminal's screen, as its tab would show it. Markers are read there, not in the bytes:
   * the Sandbox's shells run in tmux, which redraws a flood's last screen its own way, and in 3
   * of 8 soaks on a busy machine drew a marker in two pieces ("FLOOD-3-1-D", a cursor move, "ONE").
   */
  private screens: HeadlessScreens
  readonly markers = new Set<string>()
  terminalBytes = 0
  /** Banners main raised for a part that stopped working (supervisor.ts). */
  readonly unhealthy = new Set<string>()
  expiries = 0
  /** Signing in again is on its way (real I/O: the soak gives it real time). */
  relogging = false
  /** Each terminal's state as its status events say. */
  readonly terminals = new Map<string, string>()
  private core: AppCore | undefined
  private unsubscribe: (() => void) | undefined

  /** `terminalSize`: what the soak opens its terminals with (tmux draws for that size). */
  constructor(
    private readonly relogin: () => Promise<void>,
    private readonly terminalSize: ScreenSize
  ) {
    this.screens = this.newScreens()
  }

  attach(core: AppCore): void {
    this.unsubscribe?.()
    this.core = core
    this.unsubscribe = core.subscribe((event, payload, target) => this.hear(event, payload, target))
  }

  detach(): void {
    this.unsubscribe?.()
    this.unsubscribe = undefined
    this.core = undefined
    this.screens.dispose()
    this.screens = this.newScreens()
  }

  /** No scrollback: a marker is looked for on the screen as each write is parsed, before the next flood moves it. */
  private newScreens(): HeadlessScreens {
    return new HeadlessScreens(() => ({ ...this.terminalSize, scrollback: 0 }))
  }

  private hear<E extends EventName>(event: E, payload: Events[E], target: ClientId | undefined): void {
    if (target !== undefined && target !== WINDOW) return
    this.events.set(event, (this.events.get(event) ?? 0) + 1)
    // What a transport does with it (ssh.data goes as bytes; everything else as JSON).
    const bytes = sizeOf(event, payload)
    if (bytes === undefined) {
      this.lost++
      return
    }
    if (bytes > this.largestEvent.bytes && event !== 'ssh.data') this.largestEvent = { event, bytes }
    if (event === 'ssh.data') this.terminalData(payload as Events['ssh.data'])
    else if (event === 'ssh.status') {
      const status = payload as Events['ssh.status']
      this.terminals.set(status.terminalId, status.state)
    } else if (event === 'warning') {
      const warning = payload as Events['warning']
      if (warning.id.startsWith('part:') && !warning.cleared) this.unhealthy.add(warning.message)
    } else if (event === 'session' && (payload as Events['session']).status === 'expired') {
      this.expiries++
      this.relogging = true
      void this.relogin().finally(() => (this.relogging = false))
    }
  }

  private terminalData({ terminalId, data }: Events['ssh.data']): void {
    this.terminalBytes += data.length
    const core = this.core
    // Read back from this xterm itself: a write still being parsed when the window detaches (a
    // core restart) finishes after its screens were dropped, and asking them by id would make an
    // empty xterm again (never disposed) and miss the marker.
    const screen = this.screens.screen(terminalId)
    // Acknowledged once parsed, as the renderer's write callback does.
    screen.write(data, () => {
      for (const line of screenLines(screen))
        for (const match of line.matchAll(/FLOOD-(\d+)-(\d+)-DONE/g)) this.markers.add(`${match[1]}-${match[2]}`)
      if (this.core === core) core?.notice('ssh.ack', { terminalId, bytes: data.length }, { clientId: WINDOW })
    })
  }
}

/** An event's size as a transport would send it; undefined when it cannot be sent at all. */
function sizeOf(event: EventName, payload: unknown): number | undefined {
  try {
    return event === 'ssh.data' ? (payload as Events['ssh.data']).data.length : JSON.stringify(payload).length
  } catch {
    return undefined
  }
}
