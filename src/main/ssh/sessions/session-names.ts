/**
 * The names Cloud Tray gives what it keeps on an instance: a terminal's tmux session
 * (`cloudtray-<id>`), a job (`<id>`, its session `cloudtray-job-<id>`). They are made here from
 * random letters and digits and checked again wherever one comes back (a restored tab, a window's
 * request), so nothing from a server or a file ever becomes one of ours without passing the
 * same pattern. The user's own tmux sessions have whatever names they chose: those are text to
 * show, and are never used as a target (tmux-sessions.ts resolves them to tmux's own ids).
 */
import { randomBytes } from 'node:crypto'
import { z } from 'zod'

/** The longest session name of the user's that the app takes (tmux allows more; nobody types that). */
export const MAX_SESSION_NAME = 256

/**
 * A tmux session as a window or a saved tab names it: ours by their pattern (checked again where
 * one is used, `isOurSession`), the user's any name tmux allows, bounded and without control
 * characters (it is only ever shown as text).
 */
export const sessionRefSchema = z.object({
  socket: z.enum(['ours', 'user']),
  name: z
    .string()
    .min(1)
    .max(MAX_SESSION_NAME)
    .regex(/^[^\x00-\x1f\x7f]+$/)
})

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'
const ID_LENGTH = 10

/** A session of ours, on our own tmux socket: a terminal tab's, or a job's. */
export const OUR_SESSION = /^cloudtray-(?:job-)?[a-z0-9]{6,16}$/
/** The empty session a re-attaching tab's tmux client waits in for a moment (remote-scripts.ts attachOursCommand). */
const LOBBY = /^cloudtray-lobby-[0-9a-f]{12}$/
/** A job's id (its folder on the instance, its session `cloudtray-job-<id>`). */
export const JOB_ID = /^[a-z0-9]{6,16}$/

export function newSessionName(): string {
  return `cloudtray-${randomId()}`
}

export function newLobbyName(): string {
  return `cloudtray-lobby-${randomBytes(6).toString('hex')}`
}

export function isLobby(name: string): boolean {
  return LOBBY.test(name)
}

export function newJobId(): string {
  return randomId()
}

export function isOurSession(name: string): boolean {
  return OUR_SESSION.test(name)
}

export function isJobId(id: string): boolean {
  return JOB_ID.test(id)
}

export function jobSessionName(jobId: string): string {
  if (!isJobId(jobId)) throw new Error(`not a job id of Cloud Tray: ${JSON.stringify(jobId)}`)
  return `cloudtray-job-${jobId}`
}

/** A job's session name back to its id, or undefined for any other name. */
export function jobIdOfSession(name: string): string | undefined {
  const match = /^cloudtray-job-([a-z0-9]{6,16})$/.exec(name)
  return match?.[1]
}

function randomId(): string {
  const bytes = randomBytes(ID_LENGTH)
  let id = ''
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length]
  return id
}
