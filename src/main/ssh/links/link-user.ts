/**
 * What a link (links.ts) and each of its users agree on: a terminal tab, a tunnel, a files
 * session and the background `exec` user (exec.ts) are each a LinkUser holding a LinkLease.
 */
import type { ClientId } from '../../core-types'
import type { SshConnectFailure, SshConnection } from './connection'
import type { SshTarget } from '../target'

export type LinkState = 'connecting' | 'connected' | 'reconnecting' | 'failed'

export interface LinkStatus {
  state: LinkState
  /** A line in the user's words, e.g. "connection lost — reconnecting in 4 s (…)". */
  message: string
  /** While reconnecting: when the next attempt starts (Unix ms). */
  retryAt?: number
  /**
   * While reconnecting: what went wrong, without the retry's promise. A user that leaves the link
   * rather than wait for the retry (exec.ts) tells this: for it there is no retry.
   */
  cause?: string
  /** Retrying makes no sense without the user (authentication or host key, or the instance stopped). */
  needsUser?: boolean
  /** Why it failed, for callers that act on it (background users, exec). */
  reason?: SshConnectFailure | 'instance-stopped'
}

/** Something that needs the instance's connection. Callbacks never run inside `acquire`. */
export interface LinkUser {
  /** The window to ask (host key, passphrase, password) while this user waits; undefined: never ask. */
  readonly askClient?: ClientId | undefined
  /**
   * A connection is up for this user: first, after a reconnect, or again on request (`requested`:
   * the user asked to reconnect while the connection was up, e.g. a terminal wants a new shell).
   */
  connected(connection: SshConnection, requested: boolean): void
  /** The connection went down; whatever was open on it is gone. */
  disconnected(): void
  /** Progress and failures of the link, in the user's words. */
  status(status: LinkStatus): void
}

/** A user's hold on its instance's link. */
export interface LinkLease {
  readonly instanceId: string
  readonly target: SshTarget
  /** The live connection, if any. */
  readonly connection: SshConnection | undefined
  /**
   * Connects again now (after a failure, during a backoff wait); when the connection is up, this
   * user alone is handed it again (`connected(…, true)`).
   */
  reconnect(): void
  /** Leaves the link; the last user to leave ends the connection. Idempotent. */
  release(): void
}
