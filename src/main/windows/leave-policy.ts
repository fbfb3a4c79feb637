/**
 * Pages that refuse to be closed, and quitting. A notebook page with unsaved work (JupyterLab sets
 * `beforeunload`) makes Electron cancel a close, a sign-out's window closing and Quit, silently,
 * unless main answers its `will-prevent-unload`. These are the decisions; the adapters
 * (notebook-window-adapter.ts, quit-adapter.ts) only apply them:
 * - what to ask, once for all pages, for each reason, with "Stay" the safe default;
 * - the quit's progress: Quit first closes the notebook windows; if a page refuses, the user is
 *   asked once; "Stay" returns to running (so the app window hides on close again), "Quit"
 *   closes everything for real.
 */

/** Why pages are being closed. */
export type LeaveReason = 'close-window' | 'leave-page' | 'quit' | 'sign-out'

export interface LeaveQuestion {
  type: 'warning'
  title: string
  message: string
  detail: string
  /** [leave, stay]: the answer's index says which. */
  buttons: [string, string]
  defaultId: 1
  cancelId: 1
  noLink: true
}

export type LeaveAnswer = 'leave' | 'stay'

const LEAVE_BUTTON: Record<LeaveReason, string> = {
  'close-window': 'Close Anyway',
  'leave-page': 'Leave Page',
  quit: 'Quit Anyway',
  'sign-out': 'Sign Out Anyway'
}

const MESSAGE: Record<LeaveReason, string> = {
  'close-window': 'Close this notebook window?',
  'leave-page': 'Leave this notebook page?',
  quit: 'Quit Cloud Tray?',
  'sign-out': 'Sign out of Cloud Tray?'
}

/** What happens to the refusing windows if the user goes ahead (`it` / `them`). */
const CONSEQUENCE: Record<LeaveReason, (them: string) => string> = {
  'close-window': () => 'If you close it, changes you have not saved are lost.',
  'leave-page': () => 'If you leave, changes you have not saved are lost.',
  quit: (them) => `Quitting closes ${them}, and changes you have not saved are lost.`,
  'sign-out': (them) => `Signing out closes ${them}, and changes you have not saved are lost.`
}

/** Titles of the windows whose page refused to unload → the one question to ask; none → none. */
export function leaveQuestion(reason: LeaveReason, blocking: readonly string[]): LeaveQuestion | undefined {
  if (blocking.length === 0) return undefined
  const names = blocking.map((title) => `“${title}”`)
  const which =
    names.length === 1 ? `${names[0]} may have unsaved changes.` : `These notebook windows may have unsaved changes: ${names.join(', ')}.`
  return {
    type: 'warning',
    title: 'Unsaved changes',
    message: MESSAGE[reason],
    detail: `${which} ${CONSEQUENCE[reason](names.length === 1 ? 'it' : 'them')} Choose Stay to go back and save your work.`,
    buttons: [LEAVE_BUTTON[reason], 'Stay'],
    defaultId: 1,
    cancelId: 1,
    noLink: true
  }
}

export function leaveAnswer(response: number): LeaveAnswer {
  return response === 0 ? 'leave' : 'stay'
}

// ------------------------------------------------------------------ quitting

/**
 * - running: nothing is quitting; closing the app window hides it.
 * - closing-notebooks: Quit was asked for; the notebook windows are being closed.
 * - asking: a page refused; the user is being asked.
 * - quitting: confirmed; every window really closes and the app ends.
 */
export type QuitPhase = 'running' | 'closing-notebooks' | 'asking' | 'quitting'

export type QuitInput = 'quit-requested' | 'notebooks-closed' | 'notebooks-refused' | LeaveAnswer

export interface QuitStep {
  phase: QuitPhase
  /** What the adapter does now. */
  action: 'none' | 'close-notebooks' | 'ask' | 'quit'
  /** For `before-quit`: stop Electron's own quit (we carry it on ourselves, or it is already under way). */
  preventQuit: boolean
}

export function quitStep(phase: QuitPhase, input: QuitInput): QuitStep {
  const stay = (action: QuitStep['action'] = 'none'): QuitStep => ({ phase, action, preventQuit: true })
  switch (input) {
    case 'quit-requested':
      if (phase === 'running') return { phase: 'closing-notebooks', action: 'close-notebooks', preventQuit: true }
      // Confirmed: Electron's quit may go ahead (our own app.quit, or the second one after will-quit).
      if (phase === 'quitting') return { phase, action: 'none', preventQuit: false }
      // Quit again while closing or asking: the question already on screen answers it.
      return stay()
    case 'notebooks-closed':
      return phase === 'closing-notebooks' ? { phase: 'quitting', action: 'quit', preventQuit: false } : stay()
    case 'notebooks-refused':
      return phase === 'closing-notebooks' ? { phase: 'asking', action: 'ask', preventQuit: true } : stay()
    case 'leave':
      return phase === 'asking' ? { phase: 'quitting', action: 'quit', preventQuit: false } : stay()
    case 'stay':
      return phase === 'asking' ? { phase: 'running', action: 'none', preventQuit: true } : stay()
  }
}

/** Whether a close of the app window really closes it (instead of hiding it to the tray). */
export function closesForReal(phase: QuitPhase): boolean {
  return phase === 'quitting'
}
