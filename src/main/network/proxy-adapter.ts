/**
 * Electron's answer to "which proxy for this address": Chromium's own (system settings, PAC,
 * WPAD, --proxy-server), the one the notebook windows already use, as VS Code resolves it.
 */
import { session } from 'electron'
import { createNetworkRoute, type NetworkRoute } from './network-route'

export function chromiumNetworkRoute(log: (line: string) => void): NetworkRoute {
  return createNetworkRoute({ resolveProxy: (url) => session.defaultSession.resolveProxy(url), log })
}
