/**
 * The renderer's one way to main: Electron's `window.cloud` when the preload installed it,
 * otherwise the web shell's WebSocket transport. Views call `call()` and `on()` and never know
 * which one they got.
 */
import type {
  CloudBridge,
  CommandInput,
  CommandName,
  CommandResult,
  EventName,
  Events,
  NoticeInput,
  NoticeName,
  Result
} from '../../../shared/contract'
import type { WebShellEventName, WebShellEvents } from '../../../shared/web/web-shell-events'
import { createWsBridge, fetchDownlink, type ConnectionState, type WsBridge } from './transport-ws'

const SECRET_KEY = 'cloud-tray.web-secret'

/**
 * The web shell prints `http://127.0.0.1:N/#secret=…`. Keep the secret for reloads of this tab
 * and take it out of the address bar, so it does not end up in screenshots or shared links.
 */
function takeWebSecret(): string | null {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''))
  const fromHash = hash.get('secret')
  if (fromHash) {
    sessionStorage.setItem(SECRET_KEY, fromHash)
    history.replaceState(null, '', location.pathname + location.search)
    return fromHash
  }
  return sessionStorage.getItem(SECRET_KEY)
}

let bridge: CloudBridge | undefined
/** Set in the web shell: the same bridge, with the web shell's own events. */
let webBridge: WsBridge | undefined
const connectionListeners = new Set<(state: ConnectionState) => void>()

/** Whether this page runs in `npm run web` (no preload installed `window.cloud`). */
export function inWebShell(): boolean {
  return !window.cloud
}

function createBridge(): CloudBridge {
  if (window.cloud) return window.cloud
  const secret = takeWebSecret()
  if (!secret) {
    throw new Error('This page needs the address `npm run web` printed (it ends in #secret=…). Open that address instead.')
  }
  webBridge = createWsBridge({
    origin: `ws://${location.host}`,
    secret,
    openDownlink: fetchDownlink(),
    onState: (state) => {
      for (const listener of connectionListeners) listener(state)
    }
  })
  return webBridge
}

export function getBridge(): CloudBridge {
  bridge ??= createBridge()
  return bridge
}

/** Web shell only: told when the connection to `npm run web` drops or comes back. */
export function onConnectionState(listener: (state: ConnectionState) => void): () => void {
  connectionListeners.add(listener)
  return () => connectionListeners.delete(listener)
}

export function call<C extends CommandName>(
  command: C,
  ...input: CommandInput<C> extends void ? [] : [CommandInput<C>]
): Promise<Result<CommandResult<C>>> {
  return getBridge().invoke(command, ...input)
}

export function on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
  return getBridge().on(event, listener)
}

/** Web shell only: its own events (the tray, recorded effects); in Electron none ever comes. */
export function onWebShell<E extends WebShellEventName>(event: E, listener: (payload: WebShellEvents[E]) => void): () => void {
  getBridge()
  return webBridge ? webBridge.onShellEvent(event, listener) : () => {}
}

/** Web shell only: the web shell quit; stop reconnecting to it. */
export function closeWebShellConnection(): void {
  webBridge?.close()
}

/**
 * A notice (a keystroke, a resize, an ack): one way over either transport, so a terminal flood
 * brings no answer back per message. Main checks it and drops what it cannot take.
 */
export function send<N extends NoticeName>(notice: N, input: NoticeInput<N>): void {
  getBridge().send(notice, input)
}
