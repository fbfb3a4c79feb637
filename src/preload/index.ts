/**
 * The preload exposes exactly `window.cloud = { invoke, send, on }`, typed from the contract,
 * and nothing else: no ipcRenderer, no Node, no Electron objects. Only channels named in the
 * contract can be used: commands are invoked, notices sent one way, events listened to.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import {
  COMMAND_NAMES,
  EVENT_NAMES,
  NOTICE_NAMES,
  commandChannel,
  eventChannel,
  noticeChannel,
  type CloudBridge,
  type CommandName,
  type EventName,
  type NoticeName
} from '../shared/contract'

const commands = new Set<string>(COMMAND_NAMES)
const notices = new Set<string>(NOTICE_NAMES)
const events = new Set<string>(EVENT_NAMES)

const bridge: CloudBridge = {
  invoke(command: CommandName, ...input: unknown[]) {
    if (!commands.has(command)) {
      return Promise.resolve({
        ok: false,
        error: { kind: 'bad-input', message: `Unknown command ${String(command)}.` }
      })
    }
    return ipcRenderer.invoke(commandChannel(command), input[0])
  },
  send(notice: NoticeName, input: unknown) {
    // A notice outside the contract goes nowhere: there is no answer to carry a refusal.
    if (!notices.has(notice)) return
    ipcRenderer.send(noticeChannel(notice), input)
  },
  on(event: EventName, listener: (payload: never) => void) {
    if (!events.has(event)) throw new Error(`Unknown event ${String(event)}`)
    const channel = eventChannel(event)
    // Wrap so the page never receives the IpcRendererEvent (it carries `sender`).
    const wrapped = (_event: IpcRendererEvent, payload: unknown): void => listener(payload as never)
    ipcRenderer.on(channel, wrapped)
    return () => {
      ipcRenderer.removeListener(channel, wrapped)
    }
  }
} as CloudBridge

contextBridge.exposeInMainWorld('cloud', bridge)
