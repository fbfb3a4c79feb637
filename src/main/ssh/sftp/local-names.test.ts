import { describe, expect, it } from 'vitest'
import { folderNames, localNameFor, NameReport } from './local-names'

describe('names from the instance, as a download writes them here', () => {
  it.each([
    ['plain.txt', 'linux', { ok: true, name: 'plain.txt', renamed: false }],
    ['with space and ünïcødé 文件 🚀', 'linux', { ok: true, name: 'with space and ünïcødé 文件 🚀', renamed: false }],
    ['new\nline', 'linux', { ok: true, name: 'new_line', renamed: true }],
    ['back\\slash', 'linux', { ok: true, name: 'back_slash', renamed: true }],
    ['invoice\u202egpj.exe', 'linux', { ok: true, name: 'invoice_gpj.exe', renamed: true }],
    ['esc\u001b[31m\u009b', 'linux', { ok: true, name: 'esc_[31m_', renamed: true }],
    ['a:b?.txt', 'linux', { ok: true, name: 'a:b?.txt', renamed: false }],
    ['a:b?.txt', 'win32', { ok: true, name: 'a_b_.txt', renamed: true }],
    ['trailing.', 'win32', { ok: true, name: 'trailing_', renamed: true }],
    ['CON.txt', 'win32', { ok: true, name: '_CON.txt', renamed: true }],
    ['', 'linux', { ok: false, why: 'names no file' }],
    ['..', 'linux', { ok: false, why: 'names no file' }],
    ['a/b', 'linux', { ok: false, why: 'holds a character no file name may' }],
    ['nul\0', 'linux', { ok: false, why: 'holds a character no file name may' }],
    ['x'.repeat(256), 'linux', { ok: false, why: 'is longer than 255 bytes' }]
  ] as const)('%j on %s', (name, platform, expected) => {
    expect(localNameFor(name, platform)).toEqual(expected)
  })

  it('in one folder: a name listed twice is taken once; a renamed one never takes a real name', () => {
    const report = new NameReport()
    expect(folderNames(['a\\b', 'a_b', 'same', 'same', 'a/b'], report, 'linux')).toEqual(['a_b (2)', 'a_b', 'same', undefined, undefined])
    expect(report.note()).toBe(
      '2 items were left out because the instance gave them names no file can have (“same” is listed twice; “a/b” holds a character no file name may). 1 name was changed to be safe on your computer (“a\\b” → “a_b (2)”).'
    )
  })

  it('case-blind where the disk is', () => {
    const report = new NameReport()
    expect(folderNames(['Read.me', 'read.ME'], report, 'darwin')).toEqual(['Read.me', 'read (2).ME'])
    expect(folderNames(['Read.me', 'read.ME'], new NameReport(), 'linux')).toEqual(['Read.me', 'read.ME'])
  })

  it('says nothing when every name was taken as it was, and a few examples with a count otherwise', () => {
    expect(new NameReport().note()).toBeUndefined()
    const report = new NameReport()
    folderNames(
      Array.from({ length: 10 }, (_, index) => `bad\u0007${index}`),
      report,
      'linux'
    )
    expect(report.note()).toMatch(/^10 names were changed .*, and 7 more\)\.$/)
  })
})
