/**
 * The files panel (SFTP over the instance's shared SSH connection); see contract.ts for the rules
 * every command follows.
 *
 * Bytes move between the window's own files and main in chunks through this contract, the same
 * way in Electron and in a browser (`npm run web`): the window reads what the user picked or
 * dropped (File objects) and writes downloads into a folder the user picked (the File System
 * Access API); no local path ever crosses, main never touches the user's disk for a transfer.
 *
 * Upload: `files.upload` names the items (folders and files with sizes, paths relative to the
 * target folder); the window then sends each file's bytes in order as `files.chunk` (a notice: no
 * answer per chunk), keeping what it sent at most FILES_WINDOW ahead of the bytes main reports
 * written (`files.written`). Each file goes to a temporary name and is renamed when complete.
 *
 * Download: `files.download` answers the items (a folder's whole tree); main sends the bytes as
 * `files.data` (to that window only), at most FILES_WINDOW ahead of what the window reports saved
 * (`files.saved`, a notice); it starts once the window reports 0 saved, i.e. is ready.
 *
 * `files.transfer` tells the owning window how a transfer stands (progress at most 4 times a
 * second, and every change of state); the window works out speed and time left.
 */

/** Bytes one side may be ahead of the other, and the size of one chunk. */
export const FILES_WINDOW = 8 * 1024 * 1024
export const FILES_CHUNK = 256 * 1024

export type RemoteEntryType = 'file' | 'folder' | 'link' | 'other'

export interface RemoteEntry {
  name: string
  type: RemoteEntryType
  /** For a link: what it points to, when that could be seen. */
  target?: 'file' | 'folder'
  size: number
  /** Unix ms. */
  modifiedAt: number
  /** `rwxr-xr-x` */
  permissions: string
}

export type FilesState = 'connecting' | 'connected' | 'reconnecting' | 'failed'

export interface FilesStatus {
  sessionId: string
  state: FilesState
  message: string
  /** Once connected: the instance user's home folder. */
  home?: string
  needsUser?: boolean
}

export interface TransferItem {
  /** Relative to the upload's target folder, or to the download's parent folder; `/`-separated. */
  path: string
  kind: 'file' | 'folder'
  /** Bytes (0 for folders). */
  size: number
}

export type TransferState = 'running' | 'done' | 'failed' | 'cancelled'

export interface TransferProgress {
  transferId: string
  sessionId: string
  direction: 'upload' | 'download'
  state: TransferState
  bytesDone: number
  bytesTotal: number
  itemsDone: number
  itemsTotal: number
  /** The item being moved now. */
  current?: string
  /** For a failure: what happened and what to do; for success: a summary. */
  message?: string
  /**
   * A success's warning alone (also inside `message`): what a download left out or renamed to be
   * safe on this computer (ssh/sftp/local-names.ts). The command line prints it even when piped.
   */
  note?: string
}

export interface FilesCommands {
  /** Opens a files session on the instance; its progress follows as `files.status` (prompts go to this window). */
  'files.open': { input: { instanceId: string }; result: { sessionId: string } }
  'files.close': { input: { sessionId: string }; result: void }
  /**
   * The entries of a folder (unsorted), and its path as the server spells it; `note` says what was
   * left out (names no file can have).
   */
  'files.list': { input: { sessionId: string; path: string }; result: { path: string; entries: RemoteEntry[]; note?: string } }
  'files.mkdir': { input: { sessionId: string; path: string }; result: void }
  /** Renames within the instance; refused when `to` exists. */
  'files.rename': { input: { sessionId: string; from: string; to: string }; result: void }
  /** Deletes files and folders (folders with everything in them). */
  'files.delete': { input: { sessionId: string; paths: string[] }; result: void }
  /** Starts an upload into `folder`; `replace`: existing files of the same names are replaced. */
  'files.upload': { input: { sessionId: string; folder: string; items: TransferItem[]; replace: boolean }; result: { transferId: string } }
  /** Starts a download of these paths (files and whole folders). */
  'files.download': { input: { sessionId: string; paths: string[] }; result: { transferId: string; items: TransferItem[] } }
  /**
   * Electron: main asks for the folder in the OS's own dialog and writes the download there itself
   * (no bytes cross to the window); `canceled` when the user closed the dialog.
   */
  'files.downloadToFolder': {
    input: { sessionId: string; paths: string[] }
    result: { canceled: true } | { canceled: false; transferId: string; items: TransferItem[]; folder: string }
  }
  'files.cancel': { input: { transferId: string }; result: void }
}

/** One-way: main answers nothing; one for a finished or foreign transfer is dropped. */
export interface FilesNotices {
  /** Bytes of item `item` at `offset`. */
  'files.chunk': { transferId: string; item: number; offset: number; data: Uint8Array }
  /** How many bytes of the download the window has saved; 0 first: ready. */
  'files.saved': { transferId: string; bytes: number }
}

export interface FilesEvents {
  'files.status': FilesStatus
  'files.transfer': TransferProgress
  /** Upload: bytes main has written on the instance so far (the window's credit). */
  'files.written': { transferId: string; bytes: number }
  /** Download: bytes of item `item` at `offset`. */
  'files.data': { transferId: string; item: number; offset: number; data: Uint8Array }
}
