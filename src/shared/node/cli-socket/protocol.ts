/**
 * The command line's conversation with the app over its socket (place.ts, frames.ts).
 *
 * 1. The app checks its folder and socket again (owner and mode) and sends a `challenge`, or
 *    `refused` with the reason in words, and closes.
 * 2. The client proves it runs as the app's user: it creates `<folder>/peer-<nonce>` (only the
 *    user can create files in the 0700 folder) holding a random value of its own, and sends
 *    `proof`. The app reads the file without following links, checks that it is a plain file
 *    owned by the app's own uid (where the OS has uids), removes it, and answers `hello` with
 *    the value it read.
 * 3. The client checks that value: only a process of its user could read the file, so a socket
 *    squatted by someone else (a named pipe name taken first on Windows) is found out before
 *    anything is sent to it.
 *
 * Node cannot read a Unix socket's peer credentials (SO_PEERCRED, getpeereid) or set a named
 * pipe's ACL, so the file is how the peer's user is checked on every connection; see
 * src/main/cli-socket/ for what each side checks.
 *
 * After `hello` the messages are the window's own (src/shared/web/ws-protocol.ts: `invoke`,
 * `notice`; `result`, `event`) carrying the same contract, plus `subscribe`: a command line hears
 * only the broadcast events it names (and, always, the events addressed to it).
 */
import type { EventName } from '../../contract'

/** Bumped when a message changes shape; a client and an app that differ say so instead of failing oddly. */
export const CLI_PROTOCOL_VERSION = 1

/** The app's first message. */
export interface ChallengeMessage {
  t: 'challenge'
  v: number
  /** 32 hex characters: names the client's proof file. */
  nonce: string
  /** The app's version, for `cloud-tray --version`'s second line and mismatch messages. */
  app: string
}

/** The app will not talk on this connection, and says why. */
export interface RefusedMessage {
  t: 'refused'
  message: string
}

export interface ProofMessage {
  t: 'proof'
  v: number
}

/** After `hello`: which broadcast events this client wants. */
export interface SubscribeMessage {
  t: 'subscribe'
  events: EventName[]
}

/** The app's `hello` on this socket: the window's, plus the value read from the proof file. */
export interface CliHelloMessage {
  t: 'hello'
  clientId: string
  proof: string
}

export const PROOF_PREFIX = 'peer-'
/** The file a client makes for `nonce`; only hex nonces are accepted, so the name stays in the folder. */
export function proofFileName(nonce: string): string {
  if (!/^[0-9a-f]{32}$/.test(nonce)) throw new Error('A proof nonce is 32 hex characters.')
  return `${PROOF_PREFIX}${nonce}`
}
/** The value in a proof file: 64 hex characters. */
export const PROOF_VALUE = /^[0-9a-f]{64}$/

/** Limits: a client's frame (the window's own limit), and the app's (a 1000-instance snapshot fits easily). */
export const CLI_MAX_CLIENT_FRAME = 1024 * 1024 + 64 * 1024
export const CLI_MAX_SERVER_FRAME = 256 * 1024 * 1024
