import { describe, expect, it } from 'vitest'
import { planPaste, pastePreview } from './paste'
import { statusLine } from './status-line'
import { clampFontSize, terminalTheme } from './terminal-theme'
import { throttle } from './throttle'

describe('planPaste', () => {
  it.each([
    ['ls -la', 1, false],
    ['ls -la\n', 1, true],
    ['a\nb', 2, true],
    ['a\r\nb\r\n', 2, true],
    ['', 0, false]
  ])('%j → %i lines, confirm %s', (raw, lines, confirm) => {
    expect(planPaste(raw)).toMatchObject({ lines, needsConfirmation: confirm })
  })

  it('strips bracketed-paste markers hidden in the text', () => {
    expect(planPaste('echo safe\x1b[201~rm -rf ~\x1b[200~').text).toBe('echo saferm -rf ~')
  })

  it('previews the first lines and counts the rest', () => {
    expect(pastePreview('1\n2\n3', 2)).toBe('1\n2\n… and 1 more lines')
  })
})

describe('throttle', () => {
  it('runs at once, then at most once per interval with the latest arguments, and once after the last call', () => {
    let now = 0
    const pending: { at: number; fn: () => void }[] = []
    const timers = {
      now: () => now,
      setTimeout: (fn: () => void, ms: number) => pending.push({ at: now + ms, fn }),
      clearTimeout: () => {}
    }
    const calls: number[] = []
    const resize = throttle((cols: number) => calls.push(cols), 100, timers)
    resize(80)
    resize(81)
    resize(82)
    expect(calls).toEqual([80])
    now = 100
    pending.shift()!.fn()
    expect(calls).toEqual([80, 82])
  })

  it('runs a waiting call at once when flushed, and nothing when none waits', () => {
    let now = 0
    const cleared: unknown[] = []
    const timers = {
      now: () => now,
      setTimeout: () => 'timer',
      clearTimeout: (handle: unknown) => cleared.push(handle)
    }
    const calls: number[] = []
    const resize = throttle((cols: number) => calls.push(cols), 100, timers)
    resize(80)
    resize(81)
    now = 10
    resize.flush()
    expect(calls).toEqual([80, 81])
    expect(cleared).toEqual(['timer'])
    resize.flush()
    expect(calls).toEqual([80, 81])
  })
})

describe('statusLine', () => {
  it('prints on its own line and neutralises control characters in the message', () => {
    expect(statusLine({ terminalId: 't', state: 'reconnecting', message: 'connection lost — reconnecting in 2 s\x1b]0;x\x07' })).toBe(
      '\r\n\x1b[33m[connection lost — reconnecting in 2 s ]0;x ]\x1b[0m\r\n'
    )
    expect(statusLine({ terminalId: 't', state: 'connected', message: 'ok' }, true)).toBe('\x1b[32m[ok]\x1b[0m\r\n')
  })
})

describe('theme and font size', () => {
  it('follows the app theme and keeps the font size readable', () => {
    expect(terminalTheme('dark').background).toBe('#11151b')
    expect(terminalTheme('light').background).toBe('#ffffff')
    expect([2, 13.6, 99].map(clampFontSize)).toEqual([8, 14, 32])
  })
})
