/**
 * Drives the `files.*` commands the way the window does, for tests and the SFTP benchmark: uploads
 * a local tree (read in FILES_CHUNK chunks, never more than FILES_WINDOW ahead of `files.written`),
 * downloads into a local folder (written as `files.data` arrives, `files.saved` after each), and
 * waits for statuses and outcomes with a deadline instead of sleeping. Commands go through
 * `invoke` and notices (chunks, download credit) through `send` (the group's tables or the whole
 * core); events come in through `emit`.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readSync, statSync, writeSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import type { EventName, Events } from '../../../shared/contract'
import { FILES_CHUNK, FILES_WINDOW, type FilesStatus, type TransferItem, type TransferProgress } from '../../../shared/contract-files'
import type { ClientId, EventSink } from '../../core-types'
import { Waiters } from './waiters'

export type Invoke = (command: string, input: unknown) => Promise<unknown>
/** A notice: nothing is answered. */
export type Send = (notice: string, input: unknown) => void

type Handler = (input: unknown, context: { clientId: ClientId }) => unknown

/** `invoke` and `send` over a command group's tables (commands/dispatcher.ts CommandGroup), as one client. */
export function groupDriver(group: { handlers: object; notices?: object }, clientId: ClientId): { invoke: Invoke; send: Send } {
  const find = (table: object | undefined, name: string): Handler => {
    const handler = (table as Record<string, Handler> | undefined)?.[name]
    if (!handler) throw new Error(`no handler for ${name}`)
    return handler
  }
  return {
    invoke: async (command, input) => find(group.handlers, command)(input, { clientId }),
    // As the dispatcher does: a notice that cannot be taken (a transfer that ended) is dropped.
    send: (notice, input) => {
      try {
        void Promise.resolve(find(group.notices, notice)(input, { clientId })).catch(() => {})
      } catch {
        // dropped
      }
    }
  }
}

interface Receiving {
  root: string
  items: TransferItem[]
  saved: number
  fds: Map<number, number>
}

export class FilesHarness {
  invoke!: Invoke
  send!: Send
  readonly clientId: ClientId = 'client-1'
  readonly statuses: FilesStatus[] = []
  readonly progress = new Map<string, TransferProgress[]>()
  private readonly written = new Map<string, number>()
  private readonly receiving = new Map<string, Receiving>()
  private readonly waiters = new Waiters()

  readonly emit: EventSink = <E extends EventName>(event: E, payload: Events[E], target?: ClientId) => {
    if (!event.startsWith('files.') || (target !== undefined && target !== this.clientId)) return
    if (event === 'files.status') this.statuses.push(payload as FilesStatus)
    else if (event === 'files.transfer') {
      const progress = payload as TransferProgress
      this.progress.set(progress.transferId, [...(this.progress.get(progress.transferId) ?? []), progress])
    } else if (event === 'files.written') {
      const { transferId, bytes } = payload as Events['files.written']
      this.written.set(transferId, bytes)
    } else if (event === 'files.data') this.receive(payload as Events['files.data'])
    this.waiters.wake()
  }

  /** Opens a session and resolves with the home folder once connected. */
  async open(instanceId: string): Promise<{ sessionId: string; home: string }> {
    const { sessionId } = (await this.invoke('files.open', { instanceId })) as { sessionId: string }
    await this.waitFor(
      () => this.statuses.some((s) => s.sessionId === sessionId && (s.state === 'connected' || s.state === 'failed')),
      'connected'
    )
    const status = this.statuses.filter((s) => s.sessionId === sessionId).at(-1)!
    if (status.state !== 'connected') throw new Error(`files session failed: ${status.message}`)
    return { sessionId, home: status.home! }
  }

  /**
   * Uploads local `names` (files or folders, inside `localFolder`) into `remoteFolder`; resolves
   * with the final progress. `onSent` sees the bytes sent so far (a test can cancel there).
   */
  async upload(
    sessionId: string,
    remoteFolder: string,
    localFolder: string,
    names: string[],
    options: { replace?: boolean; onSent?: (transferId: string, sent: number) => void | Promise<void> } = {}
  ): Promise<TransferProgress> {
    const local: string[] = []
    const items: TransferItem[] = []
    const add = (path: string): void => {
      const stats = statSync(path)
      const rel = relative(localFolder, path).split(sep).join('/')
      if (stats.isDirectory()) {
        items.push({ path: rel, kind: 'folder', size: 0 })
        local.push(path)
        for (const child of readdirSync(path).sort()) add(join(path, child))
      } else {
        items.push({ path: rel, kind: 'file', size: stats.size })
        local.push(path)
      }
    }
    for (const name of names) add(join(localFolder, name))
    const { transferId } = (await this.invoke('files.upload', {
      sessionId,
      folder: remoteFolder,
      items,
      replace: options.replace ?? false
    })) as { transferId: string }
    let sent = 0
    sending: for (const [index, item] of items.entries()) {
      if (item.kind !== 'file') continue
      const fd = openSync(local[index]!, 'r')
      try {
        for (let offset = 0; offset < item.size;) {
          await this.waitFor(() => this.ended(transferId) || sent - (this.written.get(transferId) ?? 0) < FILES_WINDOW, 'credit')
          if (this.ended(transferId)) break sending
          // A fresh buffer per chunk, as the window's are: the chunk is handed over, not copied.
          const buffer = Buffer.allocUnsafe(Math.min(FILES_CHUNK, item.size - offset))
          const length = readSync(fd, buffer, 0, buffer.length, offset)
          // A notice, as the window sends it: no answer comes.
          this.send('files.chunk', { transferId, item: index, offset, data: new Uint8Array(buffer.buffer, buffer.byteOffset, length) })
          offset += length
          sent += length
          await options.onSent?.(transferId, sent)
        }
      } finally {
        closeSync(fd)
      }
    }
    return this.outcome(transferId)
  }

  /** Downloads `paths` into `localFolder` (which must exist); resolves with the final progress. */
  async download(
    sessionId: string,
    paths: string[],
    localFolder: string,
    onStart?: (transferId: string) => void
  ): Promise<TransferProgress> {
    const { transferId, items } = (await this.invoke('files.download', { sessionId, paths })) as {
      transferId: string
      items: TransferItem[]
    }
    const receiving: Receiving = { root: localFolder, items, saved: 0, fds: new Map() }
    this.receiving.set(transferId, receiving)
    for (const [index, item] of items.entries()) {
      if (item.kind === 'folder') mkdirSync(join(localFolder, ...item.path.split('/')), { recursive: true })
      else if (item.size === 0) closeSync(openSync(join(localFolder, ...item.path.split('/')), 'w'))
      else receiving.fds.set(index, -1)
    }
    onStart?.(transferId)
    this.send('files.saved', { transferId, bytes: 0 })
    try {
      return await this.outcome(transferId)
    } finally {
      for (const fd of receiving.fds.values()) if (fd >= 0) closeSync(fd)
      this.receiving.delete(transferId)
    }
  }

  async outcome(transferId: string): Promise<TransferProgress> {
    await this.waitFor(() => this.ended(transferId), 'the transfer to end', 60_000)
    return this.progress.get(transferId)!.at(-1)!
  }

  /** Resolves when `check` holds after some event; rejects after `timeoutMs`. */
  waitFor(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    return this.waiters.waitFor(check, what, timeoutMs)
  }

  private ended(transferId: string): boolean {
    const last = this.progress.get(transferId)?.at(-1)
    return last !== undefined && last.state !== 'running'
  }

  private receive({ transferId, item, offset, data }: Events['files.data']): void {
    const receiving = this.receiving.get(transferId)
    if (!receiving) return
    let fd = receiving.fds.get(item) ?? -1
    if (fd < 0) {
      fd = openSync(join(receiving.root, ...receiving.items[item]!.path.split('/')), 'w')
      receiving.fds.set(item, fd)
    }
    writeSync(fd, data, 0, data.length, offset)
    receiving.saved += data.length
    const bytes = receiving.saved
    this.send('files.saved', { transferId, bytes })
  }
}
