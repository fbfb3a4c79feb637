/**
 * `--state FILE`: users' instances and volumes (and the token signing key, so sessions survive a
 * restart like they do on the real service) in one JSON file. Writes are coalesced to one per
 * tick and atomic — a temporary file in the same directory, then rename — so a crash mid-write
 * leaves the previous state intact, never half a file.
 */
import { existsSync, readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { EmuInstance } from './instance-record'
import type { EmuVolume } from './volumes'

export interface EmulatorState {
  version: 1
  signingKeyPem: string
  instances: EmuInstance[]
  volumes: EmuVolume[]
}

/** The saved state, or undefined when the file does not exist yet. Throws, naming the file, if it is unreadable. */
export function loadState(path: string): EmulatorState | undefined {
  if (!existsSync(path)) return undefined
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`state file ${path} could not be read (${(error as Error).message}); move it aside to start fresh`)
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

export class StateWriter {
  private scheduled = false
  private closed = false

  constructor(
    private readonly path: string,
    private readonly snapshot: () => EmulatorState,
    private readonly onError: (error: unknown) => void
  ) {
    mkdirSync(dirname(path), { recursive: true })
  }

  /** Marks the state changed; it is written once at the end of this tick. */
  changed(): void {
    if (this.scheduled || this.closed) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      if (!this.closed) this.write()
    })
  }

  /** Writes now (close calls this so nothing is lost on shutdown). */
  flush(): void {
    this.write()
  }

  close(): void {
    if (this.closed) return
    this.write()
    this.closed = true
  }

  private write(): void {
    try {
      const tmp = `${this.path}.${process.pid}.tmp`
      writeFileSync(tmp, JSON.stringify(this.snapshot()), { mode: 0o600 })
      renameSync(tmp, this.path)
    } catch (error) {
      this.onError(error)
    }
  }
}
