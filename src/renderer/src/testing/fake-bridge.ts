/**
 * A stand-in for lib/bridge.ts in unit tests of the window's stores: every command waits until
 * the test answers it, and events and connection states are the test's to send. A test makes it
 * in `vi.hoisted` (so it outlives `vi.resetModules()` between tests) and mocks lib/bridge with
 * its `module`: see mirrors.test.ts. Not used by the app.
 */
import type { ConnectionState } from '../lib/transport-ws'

type Listener = (payload: unknown) => void

export interface FakeBridge {
  /** What `vi.mock` puts in place of lib/bridge.ts. */
  module: {
    call: (command: string, input?: unknown) => Promise<unknown>
    send: () => void
    on: (event: string, listener: Listener) => () => void
    onWebShell: () => () => void
    onConnectionState: (listener: (state: ConnectionState) => void) => () => void
    inWebShell: () => boolean
  }
  /** Every command asked, in order. */
  calls: string[]
  /** Answers the oldest unanswered call of `command` with success. */
  answer(command: string, value: unknown): void
  /** Answers the oldest unanswered call of `command` with a failure. */
  refuse(command: string, error: { kind: string; message: string; field?: string }): void
  /** Sends an event to its listeners. */
  emit(event: string, payload: unknown): void
  /** The web shell's connection changes. */
  connection(state: ConnectionState): void
  /** Forgets listeners and calls (between tests). */
  reset(): void
}

export function createFakeBridge(): FakeBridge {
  const listeners = new Map<string, Set<Listener>>()
  const waiting = new Map<string, ((value: unknown) => void)[]>()
  const connectionListeners = new Set<(state: ConnectionState) => void>()
  const calls: string[] = []
  return {
    module: {
      call: (command) => {
        calls.push(command)
        return new Promise((resolve) => waiting.set(command, [...(waiting.get(command) ?? []), resolve]))
      },
      send: () => {},
      on: (event, listener) => {
        const set = listeners.get(event) ?? new Set()
        set.add(listener)
        listeners.set(event, set)
        return () => set.delete(listener)
      },
      onWebShell: () => () => {},
      onConnectionState: (listener) => {
        connectionListeners.add(listener)
        return () => connectionListeners.delete(listener)
      },
      inWebShell: () => true
    },
    calls,
    answer(command, value) {
      const [resolve, ...rest] = waiting.get(command) ?? []
      if (!resolve) throw new Error(`nothing asked ${command}`)
      waiting.set(command, rest)
      resolve({ ok: true, value })
    },
    refuse(command, error) {
      const [resolve, ...rest] = waiting.get(command) ?? []
      if (!resolve) throw new Error(`nothing asked ${command}`)
      waiting.set(command, rest)
      resolve({ ok: false, error })
    },
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload)
    },
    connection(state) {
      for (const listener of connectionListeners) listener(state)
    },
    reset() {
      listeners.clear()
      waiting.clear()
      connectionListeners.clear()
      calls.length = 0
    }
  }
}
