/**
 * Before Quit, when the user asked for it (Settings → Cost guard): offers to stop the instances
 * still running (cost/quit-question.ts says what to ask). Resolves true when the quit may go on.
 */
import { dialog, type MessageBoxOptions } from 'electron'
import { dialogParent } from './dialog-parent-adapter'
import type { QuitOffer } from '../../shared/contract-cost'
import type { AppCore } from '../core-types'
import { quitChoice, quitQuestion } from '../../shared/quit-question'

const ask = (options: MessageBoxOptions): Promise<{ response: number }> => {
  const parent = dialogParent()
  return parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options)
}

export async function askBeforeQuit(core: AppCore, offer: QuitOffer): Promise<boolean> {
  const choice = quitChoice((await ask(quitQuestion(offer))).response)
  if (choice !== 'stop-and-quit') return choice === 'quit'
  const stopped = await core.handle('cost.stopAll', undefined, { clientId: 'main' })
  const failed = stopped.ok ? stopped.value.failed.map((entry) => entry.message) : [stopped.error.message]
  if (failed.length === 0) return true
  const { response } = await ask({
    type: 'warning',
    title: 'Not every instance stopped',
    message: 'Cloud Tray could not stop every instance.',
    detail: `${failed.join('\n')}\nThose may still be running and costing money.`,
    buttons: ['Quit Anyway', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true
  })
  return response === 0
}
