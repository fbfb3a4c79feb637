/**
 * The network faults a fake cloud's test asks for by count, as the create-once guards meet them:
 * a create that never arrives (`dropCreates`), one the cloud carried out whose answer is then cut
 * off (`loseAnswers`), a list read that fails (`failLists`). Each is the same cut connection.
 */
import { CloudError } from '../errors'

export interface CutFaults {
  dropCreates: number
  loseAnswers: number
  failLists: number
}

export function cutFaults(): { state: CutFaults; beforeCreate(): void; afterCreate(): void; beforeList(): void } {
  const state: CutFaults = { dropCreates: 0, loseAnswers: 0, failLists: 0 }
  const take = (fault: keyof CutFaults): void => {
    if (state[fault] === 0) return
    state[fault]--
    throw new CloudError('network', 'The connection was cut off before an answer came.')
  }
  return { state, beforeCreate: () => take('dropCreates'), afterCreate: () => take('loseAnswers'), beforeList: () => take('failLists') }
}
