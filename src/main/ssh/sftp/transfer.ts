/**
 * What uploads and downloads share: a state (running, then done, failed or cancelled, once),
 * progress told to the owning window at most every PROGRESS_EVERY_MS and at every change of
 * state, and cancel. Subclasses do the moving in `run`. A cancel or an outside failure (the
 * connection went) stops `run` where it waits; the final state is reported only once `run` has
 * cleaned up, so "Cancelled" means the temporary file is already gone.
 */
import type { Clock, TimerHandle } from '../../../shared/clock'
import type { TransferItem, TransferProgress, TransferState } from '../../../shared/contract-files'
import { AppError } from '../../app-error'
import type { SftpClient } from './sftp-client'
import type { TransferLink } from './lanes'
import { isConnectionLoss } from './sftp-errors'
import { formatBytes } from '../../../shared/format-bytes'

export const PROGRESS_EVERY_MS = 250

/** What a transfer cut by a dropped connection is stopped with, to be resumed on the next one. */
export class ConnectionDropped extends Error {
  constructor() {
    super('The connection to the instance was lost.')
  }
}

/** The final word when the connection went and did not come back (or the transfer could not resume). */
export function lostDuringTransfer(): AppError {
  return new AppError(
    'ssh',
    'The connection to the instance was lost during the transfer. Nothing was left under the name of the file being moved; try again once it has reconnected.'
  )
}

export interface TransferOptions {
  transferId: string
  sessionId: string
  clock: Clock
  report: (progress: TransferProgress) => void
}

export abstract class Transfer {
  readonly transferId: string
  state: TransferState = 'running'
  private readonly current: TransferProgress
  private timer: TimerHandle | undefined
  /** Set by cancel() or fail(): why `run` must stop. */
  private reason: Error | undefined
  private cancelled = false
  /** Resolves at cancel() or fail(): a wait for the connection to come back ends there too. */
  private readonly stopSignal: Promise<void>
  private signalStop: () => void = () => {}

  protected constructor(
    private readonly options: TransferOptions,
    direction: TransferProgress['direction'],
    items: readonly TransferItem[]
  ) {
    this.transferId = options.transferId
    this.stopSignal = new Promise((resolve) => (this.signalStop = resolve))
    this.current = {
      transferId: options.transferId,
      sessionId: options.sessionId,
      direction,
      state: 'running',
      bytesDone: 0,
      bytesTotal: items.reduce((sum, item) => sum + (item.kind === 'file' ? item.size : 0), 0),
      itemsDone: 0,
      itemsTotal: items.length
    }
  }

  get progressNow(): TransferProgress {
    return { ...this.current }
  }

  /** Runs the transfer to its end; never rejects (the outcome is the state and the report). */
  async start(link: TransferLink): Promise<void> {
    this.send()
    try {
      if (this.reason) throw this.reason
      await this.run(link)
      if (this.reason) throw this.reason
      this.state = 'done'
      const { itemsTotal, bytesTotal } = this.current
      const note = this.note()
      this.finish({
        state: 'done',
        message: `${itemsTotal} ${itemsTotal === 1 ? 'item' : 'items'}, ${formatBytes(bytesTotal)}.${note ? ` ${note}` : ''}`,
        ...(note ? { note } : {})
      })
    } catch (error) {
      if (this.cancelled) {
        this.state = 'cancelled'
        this.finish({ state: 'cancelled', message: 'Cancelled. Nothing was left under the name of the file being moved.' })
        return
      }
      const failure = this.reason ?? error
      this.state = 'failed'
      const message =
        failure instanceof AppError ? failure.message : `The transfer failed: ${(failure as Error)?.message ?? String(failure)}. Try again.`
      this.finish({ state: 'failed', message })
    }
  }

  /** Asks the transfer to stop; it reports "cancelled" once it has cleaned up. */
  cancel(): void {
    if (this.reason) return
    this.cancelled = true
    this.reason = new AppError('cancelled', 'Cancelled.')
    this.stopNow()
  }

  /** Stops the transfer with `error` (reported once it has cleaned up). */
  fail(error: unknown): void {
    if (this.reason) return
    this.reason = error instanceof Error ? error : new Error(String(error))
    this.stopNow()
  }

  /**
   * The session's connection went. Bytes on their way (a file's reads or writes) stop and wait
   * for the next connection, then resume from what the destination holds (`interrupted`); any
   * other step (making folders, renaming) cannot, and the transfer fails as before.
   */
  connectionLost(): void {
    if (this.reason) return
    if (this.haltMoving) this.haltMoving(new ConnectionDropped())
    else this.fail(lostDuringTransfer())
  }

  /** Stops the bytes of the file now moving (its reader or writer) for a resume; unset between files. */
  protected haltMoving: ((error: Error) => void) | undefined

  /** Whether `error` (from a file's reads or writes) is a dropped connection this transfer may resume after. */
  protected resumable(error: unknown): boolean {
    return !this.stopping && (error instanceof ConnectionDropped || isConnectionLoss(error))
  }

  /**
   * Waits for the session's SFTP on a new connection (not `dead`, the one that went), or throws
   * why not: the transfer stopped meanwhile, or the link gave up.
   */
  protected async backOnline(link: TransferLink, dead: SftpClient): Promise<void> {
    this.progress({ message: 'The connection was lost; the transfer resumes when the instance answers again.' })
    await Promise.race([link.reconnected(dead), this.stopSignal])
    if (this.stopping) throw this.stopReason()
    delete this.current.message
    this.progress({})
  }

  /** Whether cancel() or fail() asked the transfer to stop. */
  protected get stopping(): boolean {
    return this.reason !== undefined
  }

  protected abstract run(link: TransferLink): Promise<void>

  /** A sentence added to the summary of a finished transfer. */
  protected note(): string | undefined {
    return undefined
  }

  /** Called once when the transfer stops early (cancel, failure), to wake whatever waits. */
  protected stopped(): void {}

  private stopNow(): void {
    this.signalStop()
    this.stopped()
  }

  protected stopReason(): Error {
    return this.reason ?? new AppError('cancelled', 'Stopped.')
  }

  protected progress(patch: Partial<TransferProgress>): void {
    Object.assign(this.current, patch)
    this.timer ??= this.options.clock.setTimeout(() => {
      this.timer = undefined
      if (this.state === 'running' && !this.reason) this.send()
    }, PROGRESS_EVERY_MS)
  }

  protected itemDone(): void {
    this.progress({ itemsDone: this.current.itemsDone + 1 })
  }

  private finish(patch: Partial<TransferProgress>): void {
    this.options.clock.clearTimeout(this.timer)
    this.timer = undefined
    Object.assign(this.current, patch)
    if (patch.state === 'done') this.current.bytesDone = this.current.bytesTotal
    delete this.current.current
    this.send()
  }

  private send(): void {
    this.options.report({ ...this.current })
  }
}
