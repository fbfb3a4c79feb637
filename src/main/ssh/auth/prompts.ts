/**
 * Questions main asks one renderer while connecting (host key, passphrase, password): each gets
 * an id, goes out as an `ssh.prompt` event to that client only, and waits for `ssh.answer`.
 * A client that goes away has its questions answered "cancel", so no connection hangs on it.
 */
import { randomUUID } from 'node:crypto'
import type { PromptAnswer, SshPrompt } from '../../../shared/contract-ssh'
import type { ClientId } from '../../core-types'

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
export type PromptQuestion = DistributiveOmit<SshPrompt, 'promptId'>

interface Pending {
  clientId: ClientId
  resolve: (answer: PromptAnswer) => void
}

export class PromptBroker {
  private readonly pending = new Map<string, Pending>()

  constructor(private readonly send: (prompt: SshPrompt, clientId: ClientId) => void) {}

  ask(clientId: ClientId, question: PromptQuestion): { promptId: string; answer: Promise<PromptAnswer> } {
    const promptId = `p-${randomUUID()}`
    const answer = new Promise<PromptAnswer>((resolve) => this.pending.set(promptId, { clientId, resolve }))
    this.send({ ...question, promptId } as SshPrompt, clientId)
    return { promptId, answer }
  }

  /** Returns false when there is no such question from this client (answered, or never asked). */
  answer(promptId: string, answer: PromptAnswer, clientId: ClientId): boolean {
    const pending = this.pending.get(promptId)
    if (!pending || pending.clientId !== clientId) return false
    this.pending.delete(promptId)
    pending.resolve(answer)
    return true
  }

  /** Withdraws one question (the connection it belonged to ended). */
  cancel(promptId: string): void {
    const pending = this.pending.get(promptId)
    if (!pending) return
    this.pending.delete(promptId)
    pending.resolve({ kind: 'cancel' })
  }

  clientGone(clientId: ClientId): void {
    for (const [promptId, pending] of this.pending) {
      if (pending.clientId === clientId) this.cancel(promptId)
    }
  }

  get size(): number {
    return this.pending.size
  }
}
