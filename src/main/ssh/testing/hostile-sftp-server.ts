/**
 * A hostile instance's SSH server for tests (#21), made with ssh2's server API: it lets anyone in
 * and answers SFTP from a make-believe tree whose names no file system has (`../../x`, `a/b`, a
 * NUL, 4 KiB), listings that never end (1,000 new names a page, forever) or never answer at all,
 * and folders that each hold more folders, forever, each listed as slowly as the test says.
 * Paths are looked up exactly as the client spells them (parent + "/" + name), so a client that
 * joins a name holding slashes gets the hostile file it asked for. The emulator puts it behind an
 * instance's SSH port (`createReach({ sshBackend })`), so the app meets it through the core.
 */
import type { AddressInfo } from 'node:net'
import ssh2, { type Attributes, type SFTPWrapper } from 'ssh2'
import { generateEd25519PrivateKey } from '../../../emulator/reach/host-key'

const { Server, utils } = ssh2
const { STATUS_CODE } = utils.sftp

export type HostileNode = { kind: 'file'; content: string } | { kind: 'folder'; entries: [name: string, node: HostileNode][] }

export interface HostileSftpOptions {
  /** Where the session starts (`realpath('.')`). */
  home: string
  /** Absolute paths of folders the server makes up, each with its entries (names may repeat). */
  tree: Record<string, HostileNode>
  /** Folders whose listing never ends: every page has 1,000 new names. */
  endless?: string[]
  /** Folders whose READDIR is never answered. */
  silent?: string[]
  /** Folders with no bottom: each lists DEEP_FANOUT sub-folders, and so does every one of them. */
  deep?: string[]
  /** Folders with no bottom that are wide too: each lists this many sub-folders (pages of 1,000), and so does every one of them. */
  wide?: { folders: string[]; fanout: number }
  /**
   * Awaited before a folder's first page is answered (a test passes the app's clock there, to play
   * a slow instance without waiting).
   */
  beforeListing?: (path: string) => Promise<void> | void
}

/** How many sub-folders each folder under a `deep` one lists. */
const DEEP_FANOUT = 10

export interface HostileSftpServer {
  port: number
  /** What the client asked, by SFTP request. */
  requests: Record<string, number>
  /** Folder handles opened and not closed. */
  openFolders(): number
  close(): Promise<void>
}

const FILE = 0o100644
const FOLDER = 0o040755

function attrsOf(node: HostileNode): Attributes {
  const now = Math.floor(Date.now() / 1000)
  return node.kind === 'file'
    ? { mode: FILE, uid: 1000, gid: 1000, size: Buffer.byteLength(node.content), atime: now, mtime: now }
    : { mode: FOLDER, uid: 1000, gid: 1000, size: 4096, atime: now, mtime: now }
}

export async function startHostileSftpServer(options: HostileSftpOptions): Promise<HostileSftpServer> {
  // Every path the server will answer, spelled as a client joining the names would spell it.
  const paths = new Map<string, HostileNode>()
  const add = (path: string, node: HostileNode): void => {
    if (!paths.has(path)) paths.set(path, node)
    if (node.kind === 'folder') for (const [name, child] of node.entries) add(`${path === '/' ? '' : path}/${name}`, child)
  }
  for (const [path, node] of Object.entries(options.tree)) add(path, node)
  paths.set(options.home, paths.get(options.home) ?? { kind: 'folder', entries: [] })
  const deepFolder: HostileNode = { kind: 'folder', entries: [] }
  const under = (roots: string[] | undefined, path: string): boolean =>
    roots?.some((root) => path === root || path.startsWith(`${root}/`)) ?? false
  const isWide = (path: string): boolean => under(options.wide?.folders, path)
  const isDeep = (path: string): boolean => under(options.deep, path) || isWide(path)
  const nodeAt = (path: string): HostileNode | undefined => paths.get(path) ?? (isDeep(path) ? deepFolder : undefined)

  const requests: Record<string, number> = {}
  const count = (what: string): void => void (requests[what] = (requests[what] ?? 0) + 1)
  let openFolders = 0

  const serve = (sftp: SFTPWrapper): void => {
    const handles = new Map<string, { path: string; node: HostileNode; read: boolean; page: number; folder: boolean }>()
    let nextHandle = 0
    const newHandle = (path: string, node: HostileNode, folder: boolean): Buffer => {
      const handle = Buffer.from(`h${nextHandle++}`)
      handles.set(handle.toString(), { path, node, read: false, page: 0, folder })
      if (folder) openFolders++
      return handle
    }
    sftp.on('REALPATH', (id, path) => {
      count('REALPATH')
      const resolved = path === '.' || path === '' ? options.home : path
      sftp.name(id, [{ filename: resolved, longname: resolved, attrs: {} as Attributes }])
    })
    const stat = (id: number, path: string): void => {
      const node = nodeAt(path)
      if (node) sftp.attrs(id, attrsOf(node))
      else sftp.status(id, STATUS_CODE.NO_SUCH_FILE, 'No such file')
    }
    sftp.on('LSTAT', (id, path) => (count('LSTAT'), stat(id, path)))
    sftp.on('STAT', (id, path) => (count('STAT'), stat(id, path)))
    sftp.on('OPENDIR', (id, path) => {
      count('OPENDIR')
      const node = nodeAt(path)
      if (!node || node.kind !== 'folder') return sftp.status(id, STATUS_CODE.NO_SUCH_FILE, 'No such folder')
      sftp.handle(id, newHandle(path, node, true))
    })
    sftp.on('READDIR', async (id, handle) => {
      count('READDIR')
      const open = handles.get(handle.toString())
      if (!open || open.node.kind !== 'folder') return sftp.status(id, STATUS_CODE.FAILURE, 'bad handle')
      if (!open.read && open.page === 0) await options.beforeListing?.(open.path)
      if (options.silent?.includes(open.path)) return // never answered
      if (options.endless?.includes(open.path)) {
        const page = open.page++
        const names = Array.from({ length: 1_000 }, (_, index) => `endless-${page}-${index}-${'n'.repeat(40)}`)
        return sftp.name(
          id,
          names.map((filename) => ({
            filename,
            longname: `-rw-r--r-- 1 u u 0 Jan 1 00:00 ${filename}`,
            attrs: attrsOf({ kind: 'file', content: '' })
          }))
        )
      }
      if (isWide(open.path)) {
        const fanout = options.wide!.fanout
        const first = open.page++ * 1_000
        if (first >= fanout) return sftp.status(id, STATUS_CODE.EOF)
        const names = Array.from({ length: Math.min(1_000, fanout - first) }, (_, index) => `wide-${first + index}`)
        return sftp.name(
          id,
          names.map((filename) => ({ filename, longname: filename, attrs: attrsOf(deepFolder) }))
        )
      }
      if (open.read) return sftp.status(id, STATUS_CODE.EOF)
      open.read = true
      if (isDeep(open.path)) {
        const names = Array.from({ length: DEEP_FANOUT }, (_, index) => `deeper-${index}`)
        return sftp.name(
          id,
          names.map((filename) => ({ filename, longname: filename, attrs: attrsOf(deepFolder) }))
        )
      }
      sftp.name(
        id,
        open.node.entries.map(([filename, node]) => ({ filename, longname: filename, attrs: attrsOf(node) }))
      )
    })
    sftp.on('OPEN', (id, path) => {
      count('OPEN')
      const node = paths.get(path)
      if (!node || node.kind !== 'file') return sftp.status(id, STATUS_CODE.NO_SUCH_FILE, 'No such file')
      sftp.handle(id, newHandle(path, node, false))
    })
    sftp.on('READ', (id, handle, offset, length) => {
      count('READ')
      const open = handles.get(handle.toString())
      if (!open || open.node.kind !== 'file') return sftp.status(id, STATUS_CODE.FAILURE, 'bad handle')
      const bytes = Buffer.from(open.node.content)
      if (offset >= bytes.length) return sftp.status(id, STATUS_CODE.EOF)
      sftp.data(id, bytes.subarray(offset, offset + length))
    })
    sftp.on('FSTAT', (id, handle) => {
      const open = handles.get(handle.toString())
      if (open) sftp.attrs(id, attrsOf(open.node))
      else sftp.status(id, STATUS_CODE.FAILURE, 'bad handle')
    })
    sftp.on('CLOSE', (id, handle) => {
      count('CLOSE')
      const open = handles.get(handle.toString())
      if (open?.folder) openFolders--
      handles.delete(handle.toString())
      sftp.status(id, STATUS_CODE.OK)
    })
  }

  const server = new Server({ hostKeys: [generateEd25519PrivateKey('hostile-sftp-server')] }, (client) => {
    // Anyone may come in: this server's harm is in what it answers.
    client.on('authentication', (ctx) => ctx.accept())
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept()
        session.on('sftp', (accept) => serve(accept()))
        session.on('exec', (_accept, reject) => reject?.())
        session.on('pty', (_accept, reject) => reject?.())
        session.on('shell', (_accept, reject) => reject?.())
      })
    })
    client.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    openFolders: () => openFolders,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
