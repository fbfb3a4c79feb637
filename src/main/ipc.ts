/**
 * Electron IPC as a transport for the contract: each command on `ipcMain.handle(cmd:<name>)`,
 * each notice on `ipcMain.on(notice:<name>)` (one way: nothing is answered), each event out with
 * `webContents.send(evt:<name>)` to every app window, or only to `target`. Messages from
 * anything but our own renderer frame are refused (ipc-sender.ts), notices as well as commands.
 * It takes the few Electron objects it needs as parameters, typed structurally here, so it runs
 * in Node tests.
 */
import { COMMAND_NAMES, NOTICE_NAMES, commandChannel, eventChannel, noticeChannel, type CommandName } from '../shared/contract'
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

type NoticeListener = (event: InvokeEventLike, input: unknown) => void

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, input: unknown) => Promise<unknown>): void
  removeHandler(channel: string): void
  on(channel: string, listener: NoticeListener): void
  removeListener(channel: string, listener: NoticeListener): void
}

export interface IpcBinding {
  /** Stops handling commands and notices and sending events. */
  dispose(): void
}

export function bindIpc(
  core: Pick<AppCore, 'handle' | 'notice' | 'subscribe'>,
  ipcMain: IpcMainLike,
  appWindows: () => readonly WebContentsLike[],
  trusted: () => TrustedRenderer
): IpcBinding {
  const fromOurPage = (event: InvokeEventLike): boolean => {
    const frame = event.senderFrame
    const sender = {
      webContentsId: event.sender.id,
      isMainFrame: frame !== null && frame.parent === null,
      url: frame?.url
    }
    return isTrustedSender(sender, trusted())
  }
  for (const name of COMMAND_NAMES) {
    ipcMain.handle(commandChannel(name), async (event, input) => {
      if (!fromOurPage(event)) {
        return fail({ kind: 'bad-input', message: 'This message did not come from the Cloud Tray window and was refused.' })
      }
      return core.handle(name as CommandName, input, { clientId: String(event.sender.id) })
    })
  }
  const noticeListeners = NOTICE_NAMES.map((name) => {
    // A notice from anywhere else is dropped before the core sees it; nothing answers either way.
    const listener: NoticeListener = (event, input) => {
      if (fromOurPage(event)) core.notice(name, input, { clientId: String(event.sender.id) })
    }
    ipcMain.on(noticeChannel(name), listener)
    return [noticeChannel(name), listener] as const
  })
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
      for (const [channel, listener] of noticeListeners) ipcMain.removeListener(channel, listener)
    }
  }
}
