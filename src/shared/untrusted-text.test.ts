import { describe, expect, it } from 'vitest'
import { cutText, serverLine, serverLines, visibleText } from './untrusted-text'

describe('untrusted text', () => {
  it('makes invisible format characters visible and control characters spaces', () => {
    expect(visibleText('invoice\u202Egpj.exe')).toBe('invoice\uFFFDgpj.exe')
    expect(visibleText('bell\u0007\u001b[31mred\u009b')).toBe('bell  [31mred ')
    // Scripts and emoji keep their joiners.
    expect(visibleText('👩\u200D💻')).toBe('👩\u200D💻')
  })

  it('cuts at a number of characters, never inside one, and reads only the start of a long text', () => {
    expect(cutText('short', 10)).toBe('short')
    expect(cutText('abcdefghijkl', 5)).toBe('abcd…')
    expect(cutText('😀'.repeat(5), 5)).toBe('😀'.repeat(5))
    expect(cutText('😀'.repeat(6), 5)).toBe(`${'😀'.repeat(4)}…`)
    expect(cutText('x'.repeat(50_000_000), 3)).toBe('xx…')
  })

  it('a server line: the first non-empty line, visible and bounded', () => {
    expect(serverLine('\n\n  Failure: disk\u0007 full  \nsecond')).toBe('Failure: disk  full')
    expect(serverLine(undefined)).toBe('')
    expect(serverLine('y'.repeat(1_000_000))).toHaveLength(200)
    expect(serverLines('Line one\r\nLine\u202E two\u0000', 100)).toBe('Line one\nLine\uFFFD two ')
  })
})
