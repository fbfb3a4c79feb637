/**
 * Asks, once, whether to go ahead although pages refused to unload (leave-policy.ts says what to
 * ask). Attached to the focused window, else to the app window brought forward (dialog-parent-adapter.ts).
 */
import { dialog } from 'electron'
import { dialogParent } from './dialog-parent-adapter'
import { leaveAnswer, leaveQuestion, type LeaveAnswer, type LeaveReason } from './leave-policy'

/** 'leave' at once when nothing refused. */
export async function askToLeave(reason: LeaveReason, refusedTitles: readonly string[]): Promise<LeaveAnswer> {
  const question = leaveQuestion(reason, refusedTitles)
  if (!question) return 'leave'
  const parent = dialogParent()
  const { response } = parent ? await dialog.showMessageBox(parent, question) : await dialog.showMessageBox(question)
  return leaveAnswer(response)
}
