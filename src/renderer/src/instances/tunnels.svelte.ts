/**
 * Port tunnels as main reports them (`tunnels` event, `tunnels.list`), for the instance panel's
 * list; starting one goes through here so a failure comes back to the form that asked.
 */
import type { Result } from '../../../shared/contract'
import type { TunnelInfo } from '../../../shared/contract-tunnels'
import { AnswerOrder } from '../lib/answer-order'
import { call, on, onConnectionState } from '../lib/bridge'

class TunnelStore {
  list = $state<TunnelInfo[]>([])
  private readonly order = new AnswerOrder()

  listen(): () => void {
    const offs = [
      on(
        'tunnels',
        this.order.event((list) => {
          this.list = list
        })
      ),
      // Events sent while the web shell's socket was down are lost: ask again.
      onConnectionState((state) => {
        if (state === 'open') void this.load()
      })
    ]
    void this.load()
    return () => offs.forEach((off) => off())
  }

  async load(): Promise<void> {
    const { answer, overtaken } = await this.order.ask(() => call('tunnels.list'))
    if (answer.ok && !overtaken) this.list = answer.value
  }

  of(instanceId: string): TunnelInfo[] {
    return this.list.filter((tunnel) => tunnel.instanceId === instanceId)
  }

  start(instanceId: string, remotePort: number, localPort?: number): Promise<Result<TunnelInfo>> {
    return call('tunnels.start', { instanceId, remotePort, ...(localPort !== undefined ? { localPort } : {}) })
  }
}

export const tunnels = new TunnelStore()
