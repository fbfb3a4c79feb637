/**
 * A transfer's progress on one line of stderr, redrawn at most ten times a second: what moves,
 * how far, how fast and how long is left. Only on a terminal: piped or redirected, nothing is drawn.
 */
import { formatBytes } from '../shared/format-bytes'
import { formatDuration } from '../shared/cost-words'
import { shown, displayWidth } from './output'

export interface ProgressFigures {
  bytesDone: number
  bytesTotal: number
  current?: string | undefined
}

const REDRAW_MS = 100
const BAR = 12

export class ProgressBar {
  private lastDraw = 0
  private drawn = false
  private readonly startedAt: number

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly enabled: boolean,
    private readonly now: () => number = Date.now
  ) {
    this.startedAt = now()
  }

  update(figures: ProgressFigures, force = false): void {
    if (!this.enabled) return
    const now = this.now()
    if (!force && now - this.lastDraw < REDRAW_MS) return
    this.lastDraw = now
    this.stream.write(`\r${this.line(figures, now)}\u001b[K`)
    this.drawn = true
  }

  /** Clears the line (before an error or the summary). */
  clear(): void {
    if (this.drawn) this.stream.write('\r\u001b[K')
    this.drawn = false
  }

  line({ bytesDone, bytesTotal, current }: ProgressFigures, now: number): string {
    const fraction = bytesTotal > 0 ? Math.min(1, bytesDone / bytesTotal) : 1
    const filled = Math.round(fraction * BAR)
    const seconds = Math.max(0.001, (now - this.startedAt) / 1000)
    const speed = bytesDone / seconds
    const left = speed > 0 && bytesTotal > bytesDone ? ((bytesTotal - bytesDone) / speed) * 1000 : 0
    const figures = `${String(Math.floor(fraction * 100)).padStart(3)}% [${'#'.repeat(filled)}${' '.repeat(BAR - filled)}] ${formatBytes(bytesDone)}/${formatBytes(bytesTotal)}  ${formatBytes(Math.round(speed))}/s${left > 0 ? `  ${left < 60_000 ? `${Math.ceil(left / 1000)} s` : formatDuration(left)} left` : ''}`
    const width = (this.stream.columns || 80) - 1
    const room = width - displayWidth(figures) - 2
    let name = shown(current ?? '')
    if (room < 8) return figures.slice(0, width)
    while (displayWidth(name) > room) name = `…${[...name].slice(2).join('')}`
    return `${name}${' '.repeat(Math.max(0, room - displayWidth(name)))}  ${figures}`
  }

  elapsedMs(): number {
    return this.now() - this.startedAt
  }
}
