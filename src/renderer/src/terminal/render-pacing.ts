/**
 * While output floods a terminal, xterm redraws its rows every other frame at 60 Hz (at least
 * FLOOD_FRAME_MS apart) instead of at every animation frame; otherwise at the next frame, as before.
 *
 * Why: with the DOM renderer (no GPU: VMs, remote desktops, blocklisted drivers, and the headless
 * Chromium the benchmarks run in) a frame of a scrolling terminal rewrites every row and costs
 * the page 6–9 ms on the machine we measure on, where xterm alone spends ~4. At 60 frames a
 * second that left xterm ~45 % of the page's thread to parse, and output arrived faster than it
 * could be drawn. Drawing every other frame gives parsing that time back: with selection-redraw.ts,
 * the bench's floods went from 0.64–0.76 to 0.75–0.94 of xterm alone's rate (alternated in one
 * browser), and a Ctrl-C's echo came sooner (less parsing queued ahead of it). Nobody reads text
 * that scrolls at that speed; what the screen shows when the flood stops is drawn at most
 * FLOOD_FRAME_MS later. The WebGL renderer is paced too: its frames cost less, and a flood is no
 * more readable there.
 *
 * Typing never counts as a flood (an echo is a few bytes), so keys are drawn at the next frame.
 *
 * xterm has no option for this: the adapter (`paceRendering`) wraps its render service's
 * `refreshRows`, through which every parse, cursor move and resize asks for rows to be drawn. It
 * checks that shape first and leaves xterm as it is when it differs (an upgrade that renames it
 * loses only the pacing; e2e/terminal-frames.spec.ts notices). It also moves the hidden textarea
 * (where the IME and screen readers look for the cursor) with the paced redraws instead of at
 * every cursor move: each move restyled it, and so restyled and repainted the page between
 * redraws too.
 */
import type { Terminal } from '@xterm/xterm'
import { systemClock, type Clock, type TimerHandle } from '../../../shared/clock'

/** Output written within FLOOD_WINDOW_MS that makes a flood: ~640 KB/s, far above any echo. */
export const FLOOD_BYTES = 64 * 1024
export const FLOOD_WINDOW_MS = 100
/**
 * A flood lasts until this long after output last came at its rate: a flood's bursts (they come
 * as the transport delivers them) and dips must not switch pacing off and on within it.
 */
export const FLOOD_HOLD_MS = 300
/** During a flood, xterm is asked to redraw at most once per this: ~30 times a second. */
export const FLOOD_FRAME_MS = 33
/**
 * ...and no sooner than this after it last drew. It draws at the next animation frame after it is
 * asked, so at 60 Hz its redraws then fall on every other frame, not on the next: asked 33 ms
 * after the last request, a request that came just before a frame could be drawn at the frame
 * after it. (On a page too busy to draw at every frame, frames run late and back to back, and
 * only the first rule holds.)
 */
export const ASK_AFTER_DRAWN_MS = 17

type Draw = (start: number, end: number, redrawOnly: boolean) => void

/** The rows asked for since the last redraw, merged. */
interface Requested {
  start: number
  end: number
  /** Whether only cursor/selection state changed (xterm's `isRedrawOnly`): true only if every request said so. */
  redrawOnly: boolean
}

export class RenderPacer {
  private windowStartedAt = Number.NEGATIVE_INFINITY
  private windowBytes = 0
  private floodUntil = Number.NEGATIVE_INFINITY
  private lastRenderedAt = Number.NEGATIVE_INFINITY
  private lastAskedAt = Number.NEGATIVE_INFINITY
  private requested: Requested | undefined
  /** What goes with the next redraw (`alongside`). */
  private owed: (() => void) | undefined
  private timer: TimerHandle | undefined
  private disposed = false

  constructor(
    private readonly draw: Draw,
    private readonly clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>
  ) {}

  /** `bytes` of output are going into xterm now. */
  noteOutput(bytes: number): void {
    const now = this.clock.now()
    if (now - this.windowStartedAt >= FLOOD_WINDOW_MS) {
      this.windowStartedAt = now
      this.windowBytes = 0
    }
    this.windowBytes += bytes
    if (this.windowBytes >= FLOOD_BYTES) this.floodUntil = now + FLOOD_HOLD_MS
  }

  get flooding(): boolean {
    return this.clock.now() < this.floodUntil
  }

  /** xterm drew rows (its onRender). */
  rendered(): void {
    this.lastRenderedAt = this.clock.now()
  }

  /** xterm asks for rows `start`–`end` to be drawn. */
  request(start: number, end: number, redrawOnly: boolean): void {
    if (this.disposed) return
    const was = this.requested
    this.requested = was
      ? { start: Math.min(was.start, start), end: Math.max(was.end, end), redrawOnly: was.redrawOnly && redrawOnly }
      : { start, end, redrawOnly }
    // A redraw already waits: it takes these rows too (it may be the end of a flood: order stays).
    if (this.timer === undefined) this.askWhenDue()
  }

  /**
   * Runs `task` now, or during a flood with the next redraw (once, however often it is asked
   * meanwhile): what only needs to be as current as the screen.
   */
  alongside(task: () => void): void {
    if (this.disposed) return
    if (!this.flooding) return task()
    this.owed = task
    if (this.timer === undefined) this.askWhenDue()
  }

  dispose(): void {
    this.disposed = true
    this.clock.clearTimeout(this.timer)
    this.timer = undefined
    this.requested = undefined
    this.owed = undefined
  }

  private askWhenDue(): void {
    if ((!this.requested && !this.owed) || this.disposed) return
    const now = this.clock.now()
    const wait = this.flooding ? Math.max(this.lastRenderedAt + ASK_AFTER_DRAWN_MS, this.lastAskedAt + FLOOD_FRAME_MS) - now : 0
    if (wait > 0) {
      // Looked at again when due: xterm may have drawn meanwhile, which moves the time on.
      this.timer = this.clock.setTimeout(() => {
        this.timer = undefined
        this.askWhenDue()
      }, wait)
      return
    }
    const rows = this.requested
    const task = this.owed
    this.requested = undefined
    this.owed = undefined
    if (rows) {
      this.lastAskedAt = now
      this.draw(rows.start, rows.end, rows.redrawOnly)
    }
    task?.()
  }
}

/**
 * The page's clock for pacing: performance.now(), not Date.now(), whose whole milliseconds could
 * put a request just before the frame after a redraw instead of just after it.
 */
export function pageClock(): Clock {
  const timers = systemClock()
  return { now: () => performance.now(), setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout }
}

/** What the adapter reaches in xterm 6.0 (CoreBrowserTerminal and its RenderService). */
interface CoreInternals {
  _renderService?: { refreshRows?: (start: number, end: number, isRedrawOnly?: boolean) => void }
  /** Moves the hidden textarea to the cursor; called at each cursor move. */
  _syncTextArea?: () => void
}

/** Paces an opened terminal's redraws; undefined when xterm's internals are not as expected. */
export function paceRendering(term: Terminal, clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>): RenderPacer | undefined {
  const core = (term as unknown as { _core?: CoreInternals })._core
  const renderService = core?._renderService
  const refreshRows = renderService?.refreshRows
  if (!core || !renderService || typeof refreshRows !== 'function') return undefined
  const pacer = new RenderPacer((start, end, redrawOnly) => refreshRows.call(renderService, start, end, redrawOnly), clock)
  renderService.refreshRows = (start, end, isRedrawOnly = false) => pacer.request(start, end, isRedrawOnly)
  // Without it (an xterm that moved it) the textarea simply keeps following every cursor move.
  const syncTextArea = core._syncTextArea
  if (typeof syncTextArea === 'function') core._syncTextArea = () => pacer.alongside(() => syncTextArea.call(core))
  term.onRender(() => pacer.rendered())
  return pacer
}
