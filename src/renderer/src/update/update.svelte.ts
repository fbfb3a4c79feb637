/** The installed app's updates as main tells them (src/main/update): the banner, Settings' line. */
import type { UpdateState } from '../../../shared/contract-update'
import { call } from '../lib/bridge'
import { Mirror, MirroredStore } from '../lib/mirror.svelte'

/** What a waiting restart waits for, in words: "2 terminals and 1 port tunnel". */
export function waitingWords(waiting: NonNullable<UpdateState['waitingFor']>): string {
  const parts = [
    [waiting.terminals, 'terminal'],
    [waiting.tunnels, 'port tunnel'],
    [waiting.transfers, 'file transfer']
  ]
    .filter(([count]) => Number(count) > 0)
    .map(([count, noun]) => `${count} ${noun}${count === 1 ? '' : 's'}`)
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
}

class UpdateStore extends MirroredStore {
  protected readonly mirror = new Mirror({ event: 'update', read: () => call('update.get'), initial: null as UpdateState | null })

  /** null until main has been asked. */
  get state(): UpdateState | null {
    return this.mirror.value
  }

  async check(): Promise<void> {
    await this.mirror.ask(() => call('update.check'))
  }

  async restart(anyway: boolean): Promise<void> {
    await this.mirror.ask(() => call('update.restart', { anyway }))
  }
}

export const updates = new UpdateStore()
