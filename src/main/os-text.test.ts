import { describe, expect, it } from 'vitest'
import { osSafeNotification, osSafeTrayModel, osText, osTextLines } from './os-text'

describe('osText', () => {
  it.each([
    ['#12 item 11: a right-to-left override', 'invoice\u202Etxt.exe', 'invoice\uFFFDtxt.exe'],
    ['#12 item 11: embeddings and pop', 'a\u202Ab\u202Bc\u202Cd\u202De', 'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe'],
    ['#12 item 11: isolates', 'x\u2066y\u2067z\u2068w\u2069', 'x\uFFFDy\uFFFDz\uFFFDw\uFFFD'],
    ['direction marks', 'l\u200Er\u200Fa\u061C', 'l\uFFFDr\uFFFDa\uFFFD'],
    ['zero-width space, word joiner, BOM, soft hyphen', 'a\u200Bb\u2060c\uFEFFd\u00ADe', 'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe'],
    ['tag characters', 'a\u{E0041}b', 'a\uFFFDb'],
    ['line breaks, tabs and escapes become spaces', 'a\nb\rc\td\u001B[31me\u2028f', 'a b c d [31me f'],
    ['C1 controls', 'a\u0085b\u009Bc', 'a b c'],
    ['ZWJ and ZWNJ stay (emoji, scripts)', '👩\u200D💻 می\u200Cخواهم', '👩\u200D💻 می\u200Cخواهم'],
    ['plain text is untouched', 'gpu-box — Running', 'gpu-box — Running']
  ])('%s', (_label, input, shown) => {
    expect(osText(input)).toBe(shown)
  })

  it('keeps line breaks in notification bodies only', () => {
    expect(osTextLines('one\r\ntwo\nthree\u202E')).toBe('one\ntwo\nthree\uFFFD')
    const safe = osSafeNotification({ id: 'n', kind: 'ready', title: '«a\u202Eb» is\nready', body: 'x\ny\u2066' })
    expect(safe).toEqual({ id: 'n', kind: 'ready', title: '«a\uFFFDb» is ready', body: 'x\ny\uFFFD' })
  })

  it('neutralises every label at any depth and the tooltip', () => {
    const model = osSafeTrayModel({
      tooltip: 'n\u202E',
      icon: 'idle',
      items: [{ id: 'i', label: 'a\u202E', enabled: true, type: 'submenu', submenu: [{ id: 'j', label: 'b\u2067', enabled: true }] }]
    })
    expect(model).toEqual({
      tooltip: 'n\uFFFD',
      icon: 'idle',
      items: [{ id: 'i', label: 'a\uFFFD', enabled: true, type: 'submenu', submenu: [{ id: 'j', label: 'b\uFFFD', enabled: true }] }]
    })
  })
})
