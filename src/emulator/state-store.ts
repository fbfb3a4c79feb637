/**
 * `--state FILE`: users' instances, volumes, wallets and API keys (hashed), and the token signing
 * key (so sessions survive a restart like they do on the real service) in one JSON file.
 *
 * Durable before acknowledged: an answer that says "created" must survive a `kill -9` or a power
 * cut the moment the client has it. So each write goes to a temporary file in the same
 * directory, is fsynced, renamed over the state file, and the directory is fsynced (the rename
 * itself is on disk); only then are the requests waiting on it answered (`persisted()`, used
 * by `answerAfterPersisted`). A crash mid-write leaves the previous state, never half a file.
 *
 * Cheap under load: writes are coalesced. While one write is on its way, every further change
 * only marks the state dirty; when it lands, one more write carries all of them, and every
 * request waiting for any of them shares it. A request that changed nothing waits for nothing.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { open, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { WalletState } from './billing'
import type { EmuInstance } from './instance-record'
import type { EmuVolume } from './volumes'

export interface EmulatorState {
  version: 1
  signingKeyPem: string
  instances: EmuInstance[]
  volumes: EmuVolume[]
  /** API key SHA-256 → user name (absent in files written before keys existed). */
  apiKeys?: Record<string, string>
  /** User name → wallet (absent in files written before balances existed). */
  wallets?: Record<string, WalletState>
}

/** The saved state, or undefined when the file does not exist yet. Throws, naming the file, if it is unreadable. */
export function loadState(path: string): EmulatorState | undefined {
  if (!existsSync(path)) return undefined
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`state file ${path} could not be read (${(error as Error).message}); move it aside to start fresh`, { cause: error })
  }
  const state = raw as Partial<EmulatorState>
  if (
    typeof raw !== 'object' ||
    raw === null ||
    state.version !== 1 ||
    typeof state.signingKeyPem !== 'string' ||
    !Array.isArray(state.instances) ||
    !Array.isArray(state.volumes)
  )
    throw new Error(`state file ${path} is not an emulator state file (version 1); move it aside to start fresh`)
  return state as EmulatorState
}

interface Waiter {
  /** The change this waiter needs on disk. */
  seq: number
  resolve(): void
  reject(error: unknown): void
}

export class StateWriter {
  /** Bumped by every change. */
  private changeSeq = 0
  /** The last change known to be on disk. */
  private durableSeq = 0
  private running: Promise<void> | undefined
  private scheduled = false
  private closed = false
  private waiters: Waiter[] = []
  /** Completed writes (for tests and diagnostics: proves coalescing). */
  writes = 0

  constructor(
    private readonly path: string,
    private readonly snapshot: () => EmulatorState,
    private readonly onError: (error: unknown) => void
  ) {
    mkdirSync(dirname(path), { recursive: true })
  }

  /** Marks the state changed; a write follows (once per tick at most, one at a time). */
  changed(): void {
    if (this.closed) return
    this.changeSeq++
    this.schedule()
  }

  /** Resolves once every change made so far is on disk; rejects if writing it failed. */
  persisted(): Promise<void> {
    if (this.durableSeq >= this.changeSeq) return Promise.resolve()
    const seq = this.changeSeq
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ seq, resolve, reject }))
    this.schedule()
    return done
  }

  /** Writes what is left and stops (close calls this so nothing is lost on shutdown). */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.running
    if (this.durableSeq < this.changeSeq) await this.drain()
  }

  private schedule(): void {
    if (this.scheduled || this.running) return
    this.scheduled = true
    // Changes made in the same tick (a seed, a create and its first status) share the write.
    setImmediate(() => {
      this.scheduled = false
      if (!this.running) void this.drain()
    })
  }

  /** Writes until nothing is dirty; each pass carries every change made before it started. */
  private drain(): Promise<void> {
    this.running ??= (async () => {
      try {
        while (this.durableSeq < this.changeSeq) {
          const target = this.changeSeq
          try {
            await writeDurably(this.path, JSON.stringify(this.snapshot()))
            this.writes++
            this.durableSeq = target
            this.settle(
              (waiter) => waiter.seq <= target,
              (waiter) => waiter.resolve()
            )
          } catch (error) {
            this.onError(error)
            // Those waiting on this write are told; a later change tries again.
            this.settle(
              (waiter) => waiter.seq <= target,
              (waiter) => waiter.reject(error)
            )
            break
          }
        }
      } finally {
        this.running = undefined
      }
      // Changes that came while a failing write was on its way still need one.
      if (this.waiters.length > 0 && !this.closed) this.schedule()
    })()
    return this.running
  }

  private settle(match: (waiter: Waiter) => boolean, action: (waiter: Waiter) => void): void {
    const now = this.waiters.filter(match)
    this.waiters = this.waiters.filter((waiter) => !match(waiter))
    for (const waiter of now) action(waiter)
  }
}

/** Temporary file, fsync, rename over the target, fsync the directory: on disk when this resolves. */
async function writeDurably(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`
  const file = await open(tmp, 'w', 0o600)
  try {
    await file.writeFile(text)
    await file.sync()
  } finally {
    await file.close()
  }
  await rename(tmp, path)
  let directory
  try {
    directory = await open(dirname(path), 'r')
    await directory.sync()
  } catch (error) {
    // Windows cannot open or fsync a directory; there the rename is as durable as it gets.
    if (process.platform !== 'win32') throw error
  } finally {
    await directory?.close()
  }
}

/**
 * Wraps a route handler so its answer waits until the state is on disk: nothing is acknowledged
 * that a crash could still take back. A request that changed nothing is not delayed.
 */
export function answerAfterPersisted<A extends unknown[], R>(
  persisted: () => Promise<void>,
  handler: (...args: A) => R | Promise<R>
): (...args: A) => Promise<R> {
  return async (...args) => {
    const answer = await handler(...args)
    await persisted()
    return answer
  }
}
