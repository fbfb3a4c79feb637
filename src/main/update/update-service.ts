/**
 * The app's updates, in plain Node: when to ask the feed (at start, then every 6 hours), what the
 * window and tray are told, and when a restart may happen. The engine that asks the feed,
 * downloads and verifies (electron-updater, update/updater-adapter.ts) is given; a shell without
 * one (the web shell, a development run) answers `unsupported`.
 *
 * The download runs in the background as soon as an update is found; the engine verifies it
 * (sha512 from the feed; on macOS and Windows the code signature too) before it says `ready`.
 * Nothing restarts by itself: the user asks ("Restart to update", tray or window). While a
 * terminal, a port tunnel or a file transfer is open the restart waits, says what it waits for,
 * and goes ahead once they are closed, or at once with "Restart now anyway". A failure is a quiet
 * line in Settings (`error`), never a dialog; the next scheduled check tries again.
 */
import type { Clock, TimerHandle } from '../../shared/clock'
import type { Settings } from '../../shared/contract'
import type { UpdateBlockers, UpdateChannel, UpdateState } from '../../shared/contract-update'
import type { CoreLog, EventFeed, EventSink } from '../core-types'

export const CHECK_EVERY_MS = 6 * 60 * 60 * 1000
/** While a restart waits for terminals, tunnels or transfers to close: how often to look again. */
export const WAIT_POLL_MS = 2_000

/** What the engine tells the service. */
export type EngineEvent =
  | { type: 'checking' }
  | { type: 'available'; version: string }
  | { type: 'not-available' }
  | { type: 'progress'; percent: number }
  | { type: 'downloaded'; version: string }
  | { type: 'error'; message: string }

/** An update engine: electron-updater behind update/updater-adapter.ts, or a test's. */
export interface UpdateEngine {
  /** Asks the feed; a newer version starts downloading by itself. Rejections are reported as `error` events too. */
  check(channel: UpdateChannel): Promise<void>
  /** Quits, installs the downloaded update and starts the new version. */
  installAndRestart(): void
  listen(listener: (event: EngineEvent) => void): void
}

export interface UpdateServiceOptions {
  engine: UpdateEngine | undefined
  current: string
  clock: Clock
  /** The window and the tray hear `update`. */
  emit: EventSink
  /** The hub: a new update channel in the settings asks that channel's feed. */
  events?: EventFeed
  /** The update channel is a setting (stable or beta). */
  settings: { get(): Pick<Settings, 'updateChannel'> }
  /** What is open now that a restart would cut off (the SSH wing). */
  activity: { activity(): UpdateBlockers }
  log?: Pick<CoreLog, 'info'> | undefined
}

const busy = (b: UpdateBlockers): boolean => b.terminals + b.tunnels + b.transfers > 0

export class UpdateService {
  private state: UpdateState
  private timer: TimerHandle | undefined
  private waitTimer: TimerHandle | undefined
  private stopped = false

  private channelAsked: UpdateChannel

  constructor(private readonly options: UpdateServiceOptions) {
    this.channelAsked = this.channel()
    this.state = { status: options.engine ? 'idle' : 'unsupported', current: options.current, channel: this.channelAsked }
    options.engine?.listen((event) => this.onEngine(event))
    options.events?.on('settings', (settings) => {
      if (settings.updateChannel === this.channelAsked) return
      this.channelAsked = settings.updateChannel
      this.channelChanged()
    })
  }

  private channel(): UpdateChannel {
    return this.options.settings.get().updateChannel
  }

  snapshot(): UpdateState {
    return { ...this.state, channel: this.channel() }
  }

  /** At start: a check now, and every CHECK_EVERY_MS after. */
  start(): void {
    if (!this.options.engine || this.stopped) return
    void this.check()
  }

  stop(): void {
    this.stopped = true
    this.options.clock.clearTimeout(this.timer)
    this.options.clock.clearTimeout(this.waitTimer)
  }

  async check(): Promise<UpdateState> {
    const engine = this.options.engine
    if (!engine) return this.snapshot()
    this.schedule()
    // A download under way or done stays as it is; asking again would only start it over.
    if (this.state.status === 'downloading' || this.state.status === 'ready') return this.snapshot()
    this.set({ status: 'checking', checkedAt: this.options.clock.now() })
    try {
      await engine.check(this.channel())
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error))
    }
    return this.snapshot()
  }

  /** The user's "Restart to update": now if nothing is open (or `anyway`), else once it closes. */
  restart(anyway: boolean): UpdateState {
    if (this.state.status !== 'ready') return this.snapshot()
    const blockers = this.options.activity.activity()
    if (anyway || !busy(blockers)) {
      this.options.clock.clearTimeout(this.waitTimer)
      this.options.log?.info(`update: restarting into ${this.state.version}${anyway && busy(blockers) ? ' (anyway)' : ''}`)
      this.set({ waitingFor: undefined })
      this.options.engine?.installAndRestart()
      return this.snapshot()
    }
    this.set({ waitingFor: blockers })
    this.options.clock.clearTimeout(this.waitTimer)
    this.waitTimer = this.options.clock.setTimeout(() => this.restart(false), WAIT_POLL_MS)
    return this.snapshot()
  }

  /** The channel setting changed: ask the feed of the new channel. */
  channelChanged(): void {
    if (this.state.status === 'ready' || this.state.status === 'downloading') return
    void this.check()
  }

  private schedule(): void {
    this.options.clock.clearTimeout(this.timer)
    if (this.stopped) return
    this.timer = this.options.clock.setTimeout(() => void this.check(), CHECK_EVERY_MS)
  }

  private onEngine(event: EngineEvent): void {
    switch (event.type) {
      case 'checking':
        return this.set({ status: 'checking', error: undefined })
      case 'available':
        return this.set({ status: 'downloading', version: event.version, percent: 0, error: undefined })
      case 'not-available':
        return this.set({ status: 'up-to-date', version: undefined, percent: undefined, error: undefined })
      case 'progress':
        return this.set({ status: 'downloading', percent: Math.max(0, Math.min(100, Math.round(event.percent))) })
      case 'downloaded':
        this.options.log?.info(`update: ${event.version} downloaded and verified`)
        return this.set({ status: 'ready', version: event.version, percent: 100, error: undefined })
      case 'error':
        return this.fail(event.message)
    }
  }

  private fail(message: string): void {
    // A failure after the update was staged (a later check) leaves the staged update usable.
    if (this.state.status === 'ready') return
    this.options.log?.info(`update: ${message}`)
    this.set({ status: 'failed', percent: undefined, error: updateFailure(message) })
  }

  private set(patch: Partial<UpdateState>): void {
    const next = { ...this.state, ...patch, channel: this.channel() }
    for (const key of Object.keys(next) as (keyof UpdateState)[]) if (next[key] === undefined) delete next[key]
    this.state = next
    this.options.emit('update', this.snapshot())
  }
}

/** What a failed check or download says, in the user's words (the engine's own text after it). */
export function updateFailure(message: string): string {
  const said = message.split('\n')[0]!.slice(0, 300)
  if (/sha512 checksum mismatch|checksum mismatch/i.test(message))
    return `The downloaded update did not match its published checksum, so it was discarded and nothing was installed (${said}).`
  if (/code signature|not signed|publisherName|signature/i.test(message))
    return `The downloaded update was not signed by Cloud Tray's publisher, so it was discarded and nothing was installed (${said}).`
  if (/ENOTFOUND|ECONNREFUSED|ETIMEDOUT|ERR_INTERNET|ERR_NAME_NOT_RESOLVED|net::|timed out|EAI_AGAIN/i.test(message))
    return `Could not reach the update server; Cloud Tray will try again later (${said}).`
  return `Could not check for updates; Cloud Tray will try again later (${said}).`
}
