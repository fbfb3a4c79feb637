import type { CloudBridge } from '../shared/contract'

declare global {
  interface Window {
    /** Present in the Electron app; the web shell installs its WebSocket bridge instead. */
    cloud?: CloudBridge
  }
}

export {}
