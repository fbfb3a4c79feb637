/**
 * Electron IPC as a transport for the contract: each command on `ipcMain.handle(cmd:<name>)`,
 * each event out with `webContents.send(evt:<name>)` to every app window, or only to `target`.
 * Messages from anything but our own renderer frame are refused (ipc-sender.ts). It takes the
 * few Electron objects it needs as parameters, typed structurally here, so it runs in Node tests.
 */
import { COMMAND_NAMES, commandChannel, eventChannel, type CommandName } from '../shared/contract'
import { fail } from '../shared/errors'
import type { AppCore } from './core-types'
import { isTrustedSender, type TrustedRenderer } from './ipc-sender'

export interface WebContentsLike {
  readonly id: number
  isDestroyed(): boolean
  send(channel: string, payload: unknown): void
}

export interface InvokeEventLike {
  readonly sender: WebContentsLike
  /**
   * The sending frame (Electron's WebFrameMain): `parent` is null for a top-level frame. null
   * when the frame navigated away or was destroyed before the message was handled.
   */
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, input: unknown) => Promise<unknown>): void
  removeHandler(channel: string): void
}

export interface IpcBinding {
  /** Stops handling commands and sending events. */
  dispose(): void
}

export function bindIpc(
  core: AppCore,
  ipcMain: IpcMainLike,
  appWindows: () => readonly WebContentsLike[],
  trusted: () => TrustedRenderer
): IpcBinding {
  for (const name of COMMAND_NAMES) {
    ipcMain.handle(commandChannel(name), async (event, input) => {
      const frame = event.senderFrame
      const sender = {
        webContentsId: event.sender.id,
        isMainFrame: frame !== null && frame.parent === null,
        url: frame?.url
      }
      if (!isTrustedSender(sender, trusted())) {
        return fail({ kind: 'bad-input', message: 'This message did not come from the Cloud Tray window and was refused.' })
      }
      return core.handle(name as CommandName, input, { clientId: String(event.sender.id) })
    })
  }
  const unsubscribe = core.subscribe((event, payload, target) => {
    const channel = eventChannel(event)
    for (const contents of appWindows()) {
      if (contents.isDestroyed()) continue
      if (target !== undefined && String(contents.id) !== target) continue
      contents.send(channel, payload)
    }
  })
  return {
    dispose() {
      unsubscribe()
      for (const name of COMMAND_NAMES) ipcMain.removeHandler(commandChannel(name))
    }
  }
}
