/**
 * The `tunnels.*` commands, served by the SSH wing's TunnelManager (src/main/ssh/tunnels/tunnel-manager.ts):
 * a tunnel started from a window asks that window's questions (host key, passphrase) if its
 * instance's connection needs any.
 */
import { windowToAsk } from '../core-types'
import type { TunnelManager } from '../ssh/tunnels/tunnel-manager'
import type { CommandGroup } from './dispatcher'

export type TunnelCommand = 'tunnels.list' | 'tunnels.start' | 'tunnels.stop' | 'tunnels.open' | 'tunnels.checkPort'

export function tunnelCommands(tunnels: TunnelManager): CommandGroup<TunnelCommand> {
  return {
    handlers: {
      'tunnels.list': async () => tunnels.list(),
      'tunnels.start': async ({ instanceId, remotePort, localPort }, { clientId }) =>
        tunnels.start({ instanceId, remotePort, localPort }, windowToAsk(clientId)),
      'tunnels.stop': async ({ tunnelId }) => tunnels.stop(tunnelId),
      'tunnels.open': async ({ tunnelId }) => tunnels.open(tunnelId),
      'tunnels.checkPort': async ({ localPort }) => tunnels.checkPort(localPort)
    }
  }
}
