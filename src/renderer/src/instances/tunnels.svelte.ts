/**
 * Port tunnels as main reports them (`tunnels` event, `tunnels.list`), for the instance panel's
 * list; starting one goes through here so a failure comes back to the form that asked.
 */
import type { Result } from '../../../shared/contract'
import type { TunnelInfo } from '../../../shared/contract-tunnels'
import { call } from '../lib/bridge'
import { Mirror, MirroredStore } from '../lib/mirror.svelte'

class TunnelStore extends MirroredStore {
  protected readonly mirror = new Mirror({ event: 'tunnels', read: () => call('tunnels.list'), initial: [] as TunnelInfo[] })

  get list(): TunnelInfo[] {
    return this.mirror.value
  }

  of(instanceId: string): TunnelInfo[] {
    return this.list.filter((tunnel) => tunnel.instanceId === instanceId)
  }

  start(instanceId: string, remotePort: number, localPort?: number): Promise<Result<TunnelInfo>> {
    return call('tunnels.start', { instanceId, remotePort, ...(localPort !== undefined ? { localPort } : {}) })
  }
}

export const tunnels = new TunnelStore()
