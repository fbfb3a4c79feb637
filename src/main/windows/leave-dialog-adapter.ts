/**
 * Asks, once, whether to go ahead although pages refused to unload (leave-policy.ts says what to
 * ask). Attached to the focused window when there is one, else app-modal (a Quit from the tray).
 */
import { BrowserWindow, dialog } from 'electron'
import { leaveAnswer, leaveQuestion, type LeaveAnswer, type LeaveReason } from './leave-policy'

/** 'leave' at once when nothing refused. */
export async function askToLeave(reason: LeaveReason, refusedTitles: readonly string[]): Promise<LeaveAnswer> {
  const question = leaveQuestion(reason, refusedTitles)
  if (!question) return 'leave'
  const parent = BrowserWindow.getFocusedWindow()
  const { response } = parent ? await dialog.showMessageBox(parent, question) : await dialog.showMessageBox(question)
  return leaveAnswer(response)
}
