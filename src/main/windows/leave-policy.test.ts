import { describe, expect, it } from 'vitest'
import { closesForReal, leaveAnswer, leaveQuestion, quitStep, type QuitInput, type QuitPhase, type QuitStep } from './leave-policy'

describe('leaveQuestion', () => {
  it('asks nothing when no page refused', () => {
    for (const reason of ['close-window', 'leave-page', 'quit', 'sign-out'] as const) expect(leaveQuestion(reason, [])).toBeUndefined()
  })

  it.each([
    ['close-window', 'Close this notebook window?', 'Close Anyway'],
    ['leave-page', 'Leave this notebook page?', 'Leave Page'],
    ['quit', 'Quit Cloud Tray?', 'Quit Anyway'],
    ['sign-out', 'Sign out of Cloud Tray?', 'Sign Out Anyway']
  ] as const)('%s: one question, naming the window, Stay the default and the answer to Escape', (reason, message, leave) => {
    const question = leaveQuestion(reason, ['trainer — Notebook'])!
    expect(question.message).toBe(message)
    expect(question.buttons).toEqual([leave, 'Stay'])
    expect(question.detail).toContain('“trainer — Notebook” may have unsaved changes.')
    expect(question.detail).toMatch(/not saved are lost\. Choose Stay to go back and save your work\.$/)
    expect([question.defaultId, question.cancelId]).toEqual([1, 1])
  })

  it('names every refusing window in the one question', () => {
    const question = leaveQuestion('quit', ['a — Notebook', 'b — Notebook'])!
    expect(question.detail).toContain(
      'These notebook windows may have unsaved changes: “a — Notebook”, “b — Notebook”. Quitting closes them,'
    )
  })

  it('reads the answer by button index: 0 leaves, anything else stays', () => {
    expect([leaveAnswer(0), leaveAnswer(1), leaveAnswer(-1)]).toEqual(['leave', 'stay', 'stay'])
  })
})

describe('quitStep', () => {
  const table: [QuitPhase, QuitInput, QuitStep][] = [
    ['running', 'quit-requested', { phase: 'closing-notebooks', action: 'close-notebooks', preventQuit: true }],
    ['closing-notebooks', 'notebooks-closed', { phase: 'quitting', action: 'quit', preventQuit: false }],
    ['closing-notebooks', 'notebooks-refused', { phase: 'asking', action: 'ask', preventQuit: true }],
    ['asking', 'leave', { phase: 'quitting', action: 'quit', preventQuit: false }],
    // Stay: back to running, so the app window hides on close again.
    ['asking', 'stay', { phase: 'running', action: 'none', preventQuit: true }],
    // A second Quit while closing or asking does nothing new; Electron's own quit is held.
    ['closing-notebooks', 'quit-requested', { phase: 'closing-notebooks', action: 'none', preventQuit: true }],
    ['asking', 'quit-requested', { phase: 'asking', action: 'none', preventQuit: true }],
    // Once confirmed, Electron's quit (ours, and the one after will-quit) goes ahead.
    ['quitting', 'quit-requested', { phase: 'quitting', action: 'none', preventQuit: false }],
    // Stray answers change nothing.
    ['running', 'stay', { phase: 'running', action: 'none', preventQuit: true }],
    ['running', 'leave', { phase: 'running', action: 'none', preventQuit: true }],
    ['running', 'notebooks-closed', { phase: 'running', action: 'none', preventQuit: true }],
    ['quitting', 'stay', { phase: 'quitting', action: 'none', preventQuit: true }]
  ]
  it.each(table)('%s + %s', (phase, input, expected) => {
    expect(quitStep(phase, input)).toEqual(expected)
  })

  it('closes the app window for real only once the quit is confirmed', () => {
    expect((['running', 'closing-notebooks', 'asking', 'quitting'] as const).map(closesForReal)).toEqual([false, false, false, true])
  })
})
