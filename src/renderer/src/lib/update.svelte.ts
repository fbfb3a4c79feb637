/** The installed app's updates as main tells them (src/main/update): the banner, Settings' line. */
import type { UpdateState } from '../../../shared/contract-update'
import { AnswerOrder } from './answer-order'
import { call, on } from './bridge'

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

class UpdateStore {
  state = $state<UpdateState | null>(null)
  private readonly order = new AnswerOrder()

  listen(): () => void {
    return on(
      'update',
      this.order.event((state) => {
        this.state = state
      })
    )
  }

  async load(): Promise<void> {
    const { answer, overtaken } = await this.order.ask(() => call('update.get'))
    if (answer.ok && !overtaken) this.state = answer.value
  }

  async check(): Promise<void> {
    const answer = await call('update.check')
    if (answer.ok) this.state = answer.value
  }

  async restart(anyway: boolean): Promise<void> {
    const answer = await call('update.restart', { anyway })
    if (answer.ok) this.state = answer.value
  }
}

export const updates = new UpdateStore()
