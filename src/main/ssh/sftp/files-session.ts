/**
 * One files panel's SFTP session: a user of the instance's shared connection (links.ts) that
 * opens the `sftp` subsystem on each connection it is handed (again after a reconnect), learns
 * the home folder, and answers the panel's folder operations. Every path is handed to SFTP as
 * data; nothing here reaches a shell.
 */
import type { FilesState, FilesStatus, RemoteEntry } from '../../../shared/contract-files'
import { AppError } from '../../app-error'
import type { ClientId } from '../../core-types'
import type { SshConnection } from '../links/connection'
import type { LinkLease, LinkStatus, LinkUser } from '../links/link-user'
import { readFolder, listFolder } from './listing'
import { checkAbsolute, checkName, joinRemote } from './remote-path'
import { SftpClient } from './sftp-client'
import { sftpFailure } from './sftp-errors'
import { serverLine } from '../../../shared/untrusted-text'
import { widenReceiveWindow } from '../data-path/wide-window'
import type { Clock } from '../../../shared/clock'
import type { SFTPWrapper, Stats } from 'ssh2'

export interface FilesSessionOptions {
  sessionId: string
  instanceId: string
  clientId: ClientId
  report: (status: FilesStatus) => void
  /** The time listings are bounded by (listing.ts). */
  clock: Clock
  /** The SFTP session went away (connection lost, closed): transfers on it end. */
  lost: (session: FilesSession) => void
}

export class FilesSession implements LinkUser {
  readonly sessionId: string
  readonly instanceId: string
  readonly clientId: ClientId
  lease: LinkLease | undefined
  home: string | undefined
  /** One SFTP request's round trip on this connection (the realpath at the start), for lanes.ts. */
  roundTripMs: number | undefined
  private client: SftpClient | undefined
  private closed = false
  /** Told when the SFTP is back after a drop (true) or the session closed (false). */
  private readonly comebacks = new Set<(back: boolean) => void>()

  constructor(private readonly options: FilesSessionOptions) {
    this.sessionId = options.sessionId
    this.instanceId = options.instanceId
    this.clientId = options.clientId
  }

  get askClient(): ClientId {
    return this.clientId
  }

  /** The live SFTP session, or a refusal saying to wait. */
  sftp(): SftpClient {
    if (!this.client)
      throw new AppError('ssh', 'The files panel is not connected to the instance right now. Wait until it says Connected, then try again.')
    return this.client
  }

  /**
   * Up to `count` more SFTP channels on the current connection (lanes.ts: one large file over
   * several windows); a channel the server refuses is done without. The caller ends them.
   */
  async openChannels(count: number): Promise<SftpClient[]> {
    const connection = this.lease?.connection
    if (!connection || !this.client) return []
    const opened = await Promise.all(Array.from({ length: count }, () => openSftpChannel(connection).catch(() => undefined)))
    return opened.filter((client): client is SftpClient => client !== undefined)
  }

  /**
   * Resolves true when the session has an SFTP other than `dead` (now, if it has), false when it
   * closes first or `giveUp` fires first: what a transfer cut by a drop waits for to resume.
   */
  whenConnected(dead: SftpClient, giveUp: Promise<void>): Promise<boolean> {
    if (this.client && this.client !== dead) return Promise.resolve(true)
    if (this.closed) return Promise.resolve(false)
    return new Promise((resolve) => {
      const done = (back: boolean): void => {
        this.comebacks.delete(done)
        resolve(back)
      }
      this.comebacks.add(done)
      void giveUp.then(() => done(false))
    })
  }

  connected(connection: SshConnection): void {
    void this.openSftp(connection)
  }

  disconnected(): void {
    this.drop()
  }

  status(status: LinkStatus): void {
    if (this.closed) return
    const state: FilesState = status.state === 'failed' ? 'failed' : status.state
    this.report(state, status.message, status.needsUser)
  }

  close(): void {
    this.closed = true
    for (const comeback of [...this.comebacks]) comeback(false)
    this.drop()
    this.lease?.release()
    this.lease = undefined
  }

  /**
   * The entries of a folder (read with bounds: listing.ts), with links resolved to what they point
   * to where that can be seen (a few at a time). Names no file can have (a hostile server's `/`,
   * NUL or 300-byte names) are left out, and `note` says how many.
   */
  async list(path: string): Promise<{ path: string; entries: RemoteEntry[]; note?: string }> {
    const sftp = this.sftp()
    const listed = await readFolder(sftp, path, this.options.clock, { resolve: true })
    const resolved = listed.path
    const kept = listed.entries.filter((entry) => checkName(entry.filename).ok)
    const entries = await eachLimited(kept, LINK_STATS_AT_ONCE, async (entry): Promise<RemoteEntry> => {
      const type = typeOf(entry.attrs)
      const base: RemoteEntry = {
        name: entry.filename,
        type,
        size: entry.attrs.size,
        modifiedAt: entry.attrs.mtime * 1000,
        permissions: permissionsOf(entry.attrs.mode)
      }
      if (type !== 'link') return base
      const target = await sftp.stat(joinRemote(resolved, entry.filename)).catch(() => undefined)
      return target && (target.isDirectory() || target.isFile()) ? { ...base, target: target.isDirectory() ? 'folder' : 'file' } : base
    })
    const left = listed.entries.length - kept.length
    return {
      path: resolved,
      entries,
      ...(left > 0
        ? {
            note: `${left} ${left === 1 ? 'entry was' : 'entries were'} left out: the instance gave ${left === 1 ? 'it a name' : 'them names'} no file can have.`
          }
        : {})
    }
  }

  async mkdir(path: string): Promise<void> {
    const sftp = this.sftp()
    if (await sftp.exists(path).catch(() => undefined))
      throw new AppError('not-allowed', `“${path}” already exists. Choose another name.`, { field: 'name' })
    await sftp.mkdir(path).catch((error: unknown) => {
      throw sftpFailure(error, { action: 'create', path })
    })
  }

  async rename(from: string, to: string): Promise<void> {
    const sftp = this.sftp()
    if (await sftp.exists(to).catch(() => undefined))
      throw new AppError('not-allowed', `“${to}” already exists. Choose another name.`, { field: 'name' })
    await sftp.rename(from, to).catch((error: unknown) => {
      throw sftpFailure(error, { action: 'rename', path: from })
    })
  }

  /** Deletes a file, link or folder (a folder with everything in it; links are never followed). */
  async remove(path: string): Promise<void> {
    const sftp = this.sftp()
    try {
      await removeTree(sftp, path, this.options.clock)
    } catch (error) {
      throw error instanceof AppError ? error : sftpFailure(error, { action: 'delete', path })
    }
  }

  // ------------------------------------------------------------------ internals

  private async openSftp(connection: SshConnection): Promise<void> {
    if (this.closed) return
    let client: SftpClient
    try {
      client = await openSftpChannel(connection)
    } catch (error) {
      this.report('failed', `The instance does not offer file transfer (SFTP): ${serverLine((error as Error).message, 300)}.`, true)
      return
    }
    if (this.closed || this.lease?.connection !== connection) {
      client.end()
      return
    }
    client.sftp.once('close', () => {
      if (this.client === client) this.drop()
    })
    try {
      const asked = performance.now()
      const home = checkAbsolute(await client.realpath('.'))
      this.roundTripMs = performance.now() - asked
      if (!home.ok) throw new Error(`it answered a path that ${home.problem}`)
      this.home = home.value
    } catch (error) {
      client.end()
      this.report(
        'failed',
        `The instance's file server did not say where your home folder is: ${serverLine((error as Error).message)}.`,
        true
      )
      return
    }
    if (this.closed) return client.end()
    this.client = client
    const target = connection.target
    this.report('connected', `connected to ${target.username}@${target.host}`)
    for (const comeback of [...this.comebacks]) comeback(true)
  }

  private drop(): void {
    const client = this.client
    this.client = undefined
    if (!client) return
    client.end()
    this.options.lost(this)
  }

  private report(state: FilesState, message: string, needsUser?: boolean): void {
    this.options.report({
      sessionId: this.sessionId,
      state,
      message,
      ...(state === 'connected' && this.home ? { home: this.home } : {}),
      ...(needsUser ? { needsUser: true } : {})
    })
  }
}

/** A new SFTP channel on `connection`, its receive window widened for bulk reads (wide-window.ts). */
function openSftpChannel(connection: SshConnection): Promise<SftpClient> {
  return new Promise<SFTPWrapper>((resolve, reject) =>
    connection.client.sftp((error, sftp) => (error ? reject(error) : resolve(sftp)))
  ).then((wrapper) => {
    widenReceiveWindow(wrapper)
    return new SftpClient(wrapper)
  })
}

async function removeTree(sftp: SftpClient, path: string, clock: Clock): Promise<void> {
  const stats = await sftp.lstat(path)
  if (!stats.isDirectory()) return sftp.unlink(path)
  for (const entry of await listFolder(sftp, path, clock)) {
    // A name that would point elsewhere is never joined into a path to delete.
    if (!checkName(entry.filename).ok) continue
    await removeTree(sftp, joinRemote(path, entry.filename), clock)
  }
  await sftp.rmdir(path)
}

/** How many links' targets are asked at once when a folder is listed. */
const LINK_STATS_AT_ONCE = 8

/** `work` over every item, at most `limit` at a time; results in order. */
async function eachLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

function typeOf(stats: Stats): RemoteEntry['type'] {
  if (stats.isDirectory()) return 'folder'
  if (stats.isFile()) return 'file'
  if (stats.isSymbolicLink()) return 'link'
  return 'other'
}

export function permissionsOf(mode: number): string {
  const bits = 'rwxrwxrwx'
  return [...bits].map((letter, index) => (mode & (0o400 >> index) ? letter : '-')).join('')
}
