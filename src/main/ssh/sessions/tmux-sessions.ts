/**
 * tmux on an instance, over its shared link's `exec` (never a prompt, never typing into a shell):
 * whether it has a tmux we can use (asked once per link), the history a re-attached tab pulls in,
 * the sessions the instance's panel lists (ours and the user's own, each with its last line), and
 * ending one. Every command is a fixed script of remote-scripts.ts with its values as arguments.
 *
 * What an instance prints is untrusted: the session list is parsed line by line, each field
 * bounded and checked, and a line that does not fit is dropped without sinking the others.
 */
import type { InstanceSession, SessionRef } from '../../../shared/contract-ssh'
import { AppError } from '../../app-error'
import type { ExecOptions, ExecResult } from '../links/exec'
import { jobIdOfSession, isLobby, isOurSession, MAX_SESSION_NAME } from './session-names'
import {
  FIELD,
  hasOurSessionCommand,
  joinCommand,
  killOurSessionCommand,
  killUserSessionCommand,
  listSessionsCommand,
  parseProbe,
  probeCommand,
  type TmuxProbe
} from './remote-scripts'

/** What this needs of the links: `exec` on the instance's shared connection, and something learnt once per link. */
export interface SessionsLinks {
  exec(instanceId: string, command: string, options?: ExecOptions): Promise<ExecResult>
  once<T>(instanceId: string, key: string, learn: () => Promise<T>): Promise<T>
}

/** History is bounded: 10 000 lines of 2000 columns with colours would be far more than anyone scrolls. */
export const MAX_HISTORY_BYTES = 8 * 1024 * 1024
const MAX_LIST_BYTES = 1024 * 1024
const MAX_LAST_LINE = 400

/** The no-tmux notice, in the user's words. */
export const NO_TMUX_MESSAGE =
  'This tab ends if the connection drops. Install tmux on the instance to keep jobs running: `apt-get install tmux`.'

export class TmuxSessions {
  constructor(private readonly links: SessionsLinks) {}

  /** Whether the instance has a tmux we can use; asked once per link (and our config written then). */
  probe(instanceId: string): Promise<TmuxProbe> {
    return this.links.once(instanceId, 'tmux', async () => {
      const result = await this.links.exec(instanceId, probeCommand(), { timeoutMs: 15_000, maxOutputBytes: 16 * 1024 })
      const probe = parseProbe(result.stdout)
      if (!probe) throw new AppError('ssh', `Cloud Tray could not tell whether the instance has tmux (exit ${result.exitCode ?? '?'}).`)
      return probe
    })
  }

  /**
   * Moves a tab's tmux client from its lobby (`attachOursCommand`) into our session `name`,
   * answering the session's history as the terminal's bytes: empty when the session was new, or
   * when it could not be had (the tab then shows the screen without it).
   */
  async join(instanceId: string, lobby: string, name: string): Promise<Buffer> {
    requireOurs(name)
    const result = await this.links.exec(instanceId, joinCommand(lobby, name), { timeoutMs: 10_000, maxOutputBytes: MAX_HISTORY_BYTES })
    if (result.exitCode !== 0) return Buffer.alloc(0)
    return Buffer.from(result.stdout, 'utf8')
  }

  /** Whether our session `name` is still there (after its tab's tmux client ended: detached, or ended?). */
  async exists(instanceId: string, name: string): Promise<boolean> {
    requireOurs(name)
    const result = await this.links.exec(instanceId, hasOurSessionCommand(name), { timeoutMs: 10_000, maxOutputBytes: 4096 })
    return result.exitCode === 0
  }

  /** Every session on the instance's two tmux servers, ours first. */
  async list(instanceId: string): Promise<InstanceSession[]> {
    const result = await this.links.exec(instanceId, listSessionsCommand(), { timeoutMs: 15_000, maxOutputBytes: MAX_LIST_BYTES })
    return parseSessionList(result.stdout)
  }

  /** tmux's id of the session named `name` on `socket` now, or undefined when there is none. */
  async idOf(instanceId: string, session: SessionRef): Promise<string | undefined> {
    const sessions = await this.list(instanceId)
    return sessions.find((each) => each.socket === session.socket && each.name === session.name)?.id
  }

  /**
   * Ends a session: ours by its name (checked), the user's by the id its name has now. One that
   * is already gone is fine; ours is tried twice, since a tab closed at once may still be making it.
   */
  async end(instanceId: string, session: SessionRef): Promise<void> {
    if (session.socket === 'user') {
      const id = await this.idOf(instanceId, session)
      if (id === undefined) return
      const result = await this.run(instanceId, killUserSessionCommand(id))
      if (result.exitCode !== 0 && (await this.idOf(instanceId, session)) === id) throw endFailure(result)
      return
    }
    requireOurs(session.name)
    for (let attempt = 1; ; attempt++) {
      const result = await this.run(instanceId, killOurSessionCommand(session.name))
      if (result.exitCode === 0 || !(await this.exists(instanceId, session.name))) return
      if (attempt === 2) throw endFailure(result)
    }
  }

  private run(instanceId: string, command: string): Promise<ExecResult> {
    return this.links.exec(instanceId, command, { timeoutMs: 10_000, maxOutputBytes: 4096 })
  }
}

function endFailure(result: ExecResult): AppError {
  return new AppError('not-allowed', `The session could not be ended: ${oneLine(result.stderr) || `tmux said exit ${result.exitCode}`}.`)
}

export function requireOurs(name: string): void {
  if (!isOurSession(name)) throw new AppError('not-allowed', 'That is not a session Cloud Tray made.')
}

/** The list script's lines (remote-scripts.ts listSessionsCommand) as sessions; lines that do not fit are dropped. */
export function parseSessionList(stdout: string): InstanceSession[] {
  const sessions = new Map<string, InstanceSession>()
  const lastLines = new Map<string, string>()
  for (const line of stdout.split('\n')) {
    const fields = line.split(FIELD)
    const socket = fields[1]
    if (socket !== 'ours' && socket !== 'user') continue
    if (fields[0] === 'S' && fields.length >= 3) {
      const match = /^(\$\d{1,9}) (\d{1,6}) (\d{1,12}) (\d{1,12}) (.+)$/.exec(fields.slice(2).join(FIELD))
      if (!match) continue
      const [, id, attached, created, activity, name] = match as unknown as [string, string, string, string, string, string]
      if (name.length > MAX_SESSION_NAME || /[\x00-\x1f\x7f]/.test(name)) continue
      // A tab's client passing through on its way into its session (remote-scripts.ts joinCommand).
      if (socket === 'ours' && isLobby(name)) continue
      const counts = [attached, created, activity].map(Number)
      const jobId = socket === 'ours' ? jobIdOfSession(name) : undefined
      // Our server only ever holds our names; anything else there is shown as the user's would be.
      sessions.set(`${socket}\n${id}`, {
        socket,
        id,
        name,
        attached: counts[0]!,
        createdAt: counts[1]! * 1000,
        lastActivityAt: counts[2]! * 1000,
        lastLine: '',
        ...(jobId ? { jobId } : {})
      })
    } else if (fields[0] === 'L' && fields.length >= 4) {
      const id = fields[2] as string
      lastLines.set(`${socket}\n${id}`, visible(fields.slice(3).join(' ')).slice(0, MAX_LAST_LINE))
    }
  }
  for (const [key, session] of sessions) session.lastLine = lastLines.get(key) ?? ''
  return [...sessions.values()].sort((a, b) => (a.socket === b.socket ? b.lastActivityAt - a.lastActivityAt : a.socket === 'ours' ? -1 : 1))
}

/** Control characters (an escape sequence a program left on its last line) shown as spaces: it is text for a list. */
function visible(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ').trimEnd()
}

function oneLine(text: string): string {
  return visible(text.split('\n')[0] ?? '').slice(0, 200)
}
