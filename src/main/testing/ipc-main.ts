/** A recording stand-in for Electron's ipcMain, for the tests of bindIpc (ipc.ts). */
import type { InvokeEventLike, IpcMainLike } from '../ipc'

export function fakeIpcMain() {
  /** Command channel → its handler. */
  const handlers = new Map<string, (event: InvokeEventLike, input: unknown) => Promise<unknown>>()
  /** Notice channel → its listener. */
  const listeners = new Map<string, (event: InvokeEventLike, input: unknown) => void>()
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
    on: (channel, listener) => void listeners.set(channel, listener),
    removeListener: (channel, listener) => void (listeners.get(channel) === listener && listeners.delete(channel))
  }
  return { ipcMain, handlers, listeners }
}
