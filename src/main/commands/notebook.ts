/**
 * `notebook.open`: opens the instance's notebook in its own window, signed in with the session's
 * cookie. The window itself is the platform's (Electron: notebook/notebook-window-adapter.ts;
 * a shell without Electron: its stand-in); this group decides whether it may open and with what.
 */
import type { Instance } from '../../shared/api'
import type { Profile } from '../../shared/contract'
import type { SandboxInfo } from '../account/sandbox'
import { AppError } from '../app-error'
import type { NotebookWindowRequest, Platform } from '../core-types'
import { notebookAddress } from '../notebook/notebook-url'
import { notebookCookie } from '../notebook/notebook-cookie'
import type { CommandGroup } from './dispatcher'

export interface NotebookServices {
  platform: Pick<Platform, 'openNotebook'>
  /** The session's token (main only: it goes into the window's cookie, nowhere else). */
  accessToken(): string | undefined
  /** True on an API-key session without a notebook token yet: the password is asked for first. */
  needsNotebookPassword?(): boolean
  /** The instance as the watcher last saw it. */
  findInstance(instanceId: string): Instance | undefined
  currentProfile(): Profile
  /** Set while the Sandbox profile's embedded emulator runs. */
  sandbox(): SandboxInfo | undefined
}

export function notebookCommands(services: NotebookServices): CommandGroup<'notebook.open'> {
  return {
    handlers: {
      'notebook.open': ({ instanceId }) => openNotebook(services, instanceId)
    }
  }
}

/** Opens the window (`notebook.open`, the tray's "Open notebook") and answers its URL. */
export async function openNotebook(services: NotebookServices, instanceId: string): Promise<{ url: string }> {
  const request = notebookWindowRequest(services, instanceId)
  await services.platform.openNotebook(request)
  return { url: request.url }
}

/** What the platform needs to open the window. Throws AppError with a message for the user. */
export function notebookWindowRequest(services: NotebookServices, instanceId: string): NotebookWindowRequest {
  const token = services.accessToken()
  if (token === undefined && services.needsNotebookPassword?.()) {
    // `field: password` tells the window to ask for it (session.notebookSignIn), then open again.
    throw new AppError(
      'no-session',
      'Notebook pages need your password once: the cloud opens them only for a browser signed in with it. Enter it in Cloud Tray’s window; the API key stays in use for everything else.',
      { field: 'password' }
    )
  }
  if (token === undefined) throw new AppError('no-session', 'Sign in to open a notebook.')
  const instance = services.findInstance(instanceId)
  if (!instance) {
    throw new AppError(
      'not-allowed',
      'This instance is no longer in your list. Refresh the list; if it is still there, open its notebook again.'
    )
  }
  const address = notebookAddress(instance)
  if (!address.ok) throw new AppError('not-allowed', address.message)
  let cookie: NotebookWindowRequest['cookie']
  try {
    cookie = notebookCookie(address.url, token)
  } catch (error) {
    throw new AppError('no-session', (error as Error).message)
  }
  // Only the Sandbox's own certificate is pinned; a real cloud's notebook uses ordinary web PKI.
  const pin = services.sandbox()?.notebookCertSha256
  return {
    profileId: services.currentProfile().id,
    instanceId,
    instanceName: instance.instanceSpecInfo.name,
    url: address.url,
    cookie,
    ...(pin ? { pinnedCertificateSha256: pin } : {})
  }
}
