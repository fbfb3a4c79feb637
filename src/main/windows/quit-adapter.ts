/**
 * Quit, as leave-policy.ts's quitStep decides it: `before-quit` is held while the notebook windows
 * are closed; a page that refuses makes the app ask once; "Stay" leaves everything running (and
 * the app window hiding on close, as before); once confirmed, the remaining notebook windows are
 * closed without asking again and Electron's quit goes ahead.
 */
import { app } from 'electron'
import { askToLeave } from './leave-dialog-adapter'
import { closesForReal, quitStep, type QuitInput, type QuitPhase, type QuitStep } from './leave-policy'

/** What Quit needs of the notebook windows (notebook/notebook-window-adapter.ts's NotebookWindows fits). */
export interface QuitNotebooks {
  /** Asks every notebook window to close; resolves with the titles of those whose page refused. */
  closeAll(): Promise<string[]>
  /** Closes them at once, without asking their pages. */
  destroyAll(): void
}

export interface QuitControl {
  /** Whether closing the app window really closes it (the quit is confirmed) instead of hiding it. */
  isQuitting(): boolean
}

/**
 * `beforeQuit`: asked once per quit before anything closes (the cost guard's offer to stop
 * running instances). Undefined: nothing to ask, the quit goes on as before; a promise of false
 * cancels the quit, leaving everything as it was.
 */
export function handleQuit(
  notebooks: QuitNotebooks,
  log: (line: string) => void = () => {},
  beforeQuit?: () => Promise<boolean> | undefined
): QuitControl {
  let phase: QuitPhase = 'running'
  let refused: string[] = []
  let offer: 'none' | 'asking' | 'done' = 'none'
  const advance = (input: QuitInput): QuitStep => {
    const step = quitStep(phase, input)
    if (step.phase !== phase) log(`quit: ${phase} → ${step.phase} (${input})`)
    phase = step.phase
    // "Stay" at the unsaved-work question: the next Quit offers to stop instances again.
    if (phase === 'running') offer = 'none'
    if (step.action === 'close-notebooks') {
      void notebooks.closeAll().then((titles) => {
        refused = titles
        advance(titles.length > 0 ? 'notebooks-refused' : 'notebooks-closed')
      })
    } else if (step.action === 'ask') {
      void askToLeave('quit', refused).then(advance)
    } else if (step.action === 'quit') {
      notebooks.destroyAll()
      app.quit()
    }
    return step
  }
  app.on('before-quit', (event) => {
    const asking = phase === 'running' && offer === 'none' ? beforeQuit?.() : undefined
    if (asking || offer === 'asking') {
      event.preventDefault()
      if (asking) {
        offer = 'asking'
        void asking
          .catch(() => true)
          .then((goOn) => {
            offer = goOn ? 'done' : 'none'
            if (goOn) app.quit()
            else log('quit: cancelled at the offer to stop running instances')
          })
      }
      return
    }
    if (advance('quit-requested').preventQuit) event.preventDefault()
  })
  return { isQuitting: () => closesForReal(phase) }
}
