/**
 * The `tunnels.*` commands, served by the ssh group's TunnelManager (src/main/ssh/tunnel-manager.ts):
 * a tunnel started from a window asks that window's questions (host key, passphrase) if its
 * instance's connection needs any.
 */
import { MAIN_CLIENT, type CommandHandlers } from '../core-types'
import type { TunnelManager } from '../ssh/tunnel-manager'

export function tunnelHandlers(tunnels: TunnelManager): CommandHandlers {
  return {
    'tunnels.list': async () => tunnels.list(),
    'tunnels.start': async ({ instanceId, remotePort, localPort }, { clientId }) =>
      tunnels.start({ instanceId, remotePort, localPort }, clientId === MAIN_CLIENT ? undefined : clientId),
    'tunnels.stop': async ({ tunnelId }) => tunnels.stop(tunnelId),
    'tunnels.open': async ({ tunnelId }) => tunnels.open(tunnelId),
    'tunnels.checkPort': async ({ localPort }) => tunnels.checkPort(localPort)
  }
}
