/**
 * The `files.*` commands, served by the ssh group's FilesManager (src/main/ssh/files-manager.ts).
 * Every session and transfer belongs to the window that made it.
 */
import type { CommandHandlers } from '../core-types'
import type { FilesManager } from '../ssh/files-manager'

export function filesHandlers(files: FilesManager): CommandHandlers {
  return {
    'files.open': async ({ instanceId }, { clientId }) => files.open(instanceId, clientId),
    'files.close': async ({ sessionId }, { clientId }) => files.close(sessionId, clientId),
    'files.list': ({ sessionId, path }, { clientId }) => files.list(sessionId, clientId, path),
    'files.mkdir': ({ sessionId, path }, { clientId }) => files.mkdir(sessionId, clientId, path),
    'files.rename': ({ sessionId, from, to }, { clientId }) => files.rename(sessionId, clientId, from, to),
    'files.delete': ({ sessionId, paths }, { clientId }) => files.remove(sessionId, clientId, paths),
    'files.upload': async ({ sessionId, folder, items, replace }, { clientId }) => files.upload(sessionId, clientId, folder, items, replace),
    'files.chunk': async ({ transferId, item, offset, data }, { clientId }) => files.chunk(transferId, clientId, item, offset, data),
    'files.download': ({ sessionId, paths }, { clientId }) => files.download(sessionId, clientId, paths),
    'files.saved': async ({ transferId, bytes }, { clientId }) => files.saved(transferId, clientId, bytes),
    'files.cancel': async ({ transferId }, { clientId }) => files.cancel(transferId, clientId)
  }
}
