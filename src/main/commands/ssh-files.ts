/**
 * The `files.*` commands and notices, served by the ssh group's FilesManager
 * (src/main/ssh/sftp/files-manager.ts). Every session and transfer belongs to the window that made it.
 * Upload chunks and download credit are notices: flow control comes back as events
 * (`files.written`, `files.data`), so no answer per chunk crosses the transport.
 */
import type { FilesManager } from '../ssh/sftp/files-manager'
import type { CommandGroup } from './dispatcher'
import { AppError } from '../app-error'

export type FilesCommand =
  | 'files.open'
  | 'files.close'
  | 'files.list'
  | 'files.mkdir'
  | 'files.rename'
  | 'files.delete'
  | 'files.upload'
  | 'files.download'
  | 'files.downloadToFolder'
  | 'files.cancel'

export type FilesNotice = 'files.chunk' | 'files.saved'

/** `pickFolder`: the shell's own folder dialog (Electron's, in main); absent where the window picks (the web shell). */
export function filesCommands(
  files: FilesManager,
  pickFolder?: () => Promise<string | undefined>
): CommandGroup<FilesCommand, FilesNotice> {
  return {
    handlers: {
      'files.open': async ({ instanceId }, { clientId }) => files.open(instanceId, clientId),
      'files.close': async ({ sessionId }, { clientId }) => files.close(sessionId, clientId),
      'files.list': ({ sessionId, path }, { clientId }) => files.list(sessionId, clientId, path),
      'files.mkdir': ({ sessionId, path }, { clientId }) => files.mkdir(sessionId, clientId, path),
      'files.rename': ({ sessionId, from, to }, { clientId }) => files.rename(sessionId, clientId, from, to),
      'files.delete': ({ sessionId, paths }, { clientId }) => files.remove(sessionId, clientId, paths),
      'files.upload': async ({ sessionId, folder, items, replace }, { clientId }) =>
        files.upload(sessionId, clientId, folder, items, replace),
      'files.download': ({ sessionId, paths }, { clientId }) => files.download(sessionId, clientId, paths),
      'files.downloadToFolder': async ({ sessionId, paths }, { clientId }) => {
        if (!pickFolder) throw new AppError('not-allowed', 'This window picks the folder itself: use Download.')
        const folder = await pickFolder()
        if (!folder) return { canceled: true as const }
        return { canceled: false as const, ...(await files.downloadTo(sessionId, clientId, paths, folder)) }
      },
      'files.cancel': async ({ transferId }, { clientId }) => files.cancel(transferId, clientId)
    },
    notices: {
      'files.chunk': ({ transferId, item, offset, data }, { clientId }) => files.chunk(transferId, clientId, item, offset, data),
      'files.saved': ({ transferId, bytes }, { clientId }) => files.saved(transferId, clientId, bytes)
    }
  }
}
