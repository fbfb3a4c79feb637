import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FrameError, decodeFrame, encodeFrame, encodeFrameParts, isClientMessage, isServerMessage, joinFrame } from './ws-protocol'

describe('ws frame codec', () => {
  it('sends plain messages as text', () => {
    const message = { t: 'result', id: 3, result: { ok: true, value: { a: [1, 'x', null] } } }
    const frame = encodeFrame(message)
    expect(typeof frame).toBe('string')
    expect(decodeFrame(frame)).toEqual(message)
  })

  it('sends messages with bytes as one binary frame, bytes intact', () => {
    const data = new Uint8Array([0, 0xe2, 0x82, 0xac, 255])
    const message = { t: 'event', event: 'ssh.data', payload: { terminalId: 't', data, more: [new Uint8Array(0)] } }
    const frame = encodeFrame(message)
    expect(frame).toBeInstanceOf(Uint8Array)
    const decoded = decodeFrame(frame) as typeof message
    expect(decoded.payload.terminalId).toBe('t')
    expect(Array.from(decoded.payload.data)).toEqual(Array.from(data))
    expect(decoded.payload.more[0]).toBeInstanceOf(Uint8Array)
    expect(decoded.payload.more[0]!.length).toBe(0)
  })

  it('gives a binary frame as parts that carry the bytes themselves, uncopied, and join into the frame', () => {
    const data = new Uint8Array(64 * 1024).fill(0x61)
    const message = { t: 'event', event: 'ssh.data', payload: { terminalId: 't', data } }
    const parts = encodeFrameParts(message)
    expect(Array.isArray(parts)).toBe(true)
    expect((parts as Uint8Array[])[1]).toBe(data)
    expect(joinFrame(parts)).toEqual(encodeFrame(message))
    expect(encodeFrameParts({ t: 'result' })).toBe(encodeFrame({ t: 'result' }))
  })

  it("decodes chunks as views into the frame when asked (a page's own frames), as copies otherwise", () => {
    const frame = encodeFrame({ data: new Uint8Array([1, 2, 3]) }) as Uint8Array
    const view = (decodeFrame(frame, true) as { data: Uint8Array }).data
    const copy = (decodeFrame(frame) as { data: Uint8Array }).data
    expect(view.buffer).toBe(frame.buffer)
    expect(copy.buffer).not.toBe(frame.buffer)
    expect(Array.from(view)).toEqual([1, 2, 3])
  })

  it('sends a Node Buffer as bytes too (its toJSON runs before a replacer)', () => {
    const frame = encodeFrame({ data: Buffer.from('héllo') })
    expect(frame).toBeInstanceOf(Uint8Array)
    const decoded = decodeFrame(frame) as { data: Uint8Array }
    expect(new TextDecoder().decode(decoded.data)).toBe('héllo')
  })

  it('round-trips any JSON value with any bytes inside', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.uint8Array({ maxLength: 300 }), (value, bytes) => {
        const message = { value, bytes }
        const decoded = decodeFrame(encodeFrame(message)) as { value: unknown; bytes: Uint8Array }
        expect(decoded.value).toEqual(JSON.parse(JSON.stringify(value)))
        expect(Array.from(decoded.bytes)).toEqual(Array.from(bytes))
      }),
      { numRuns: 200 }
    )
  })

  it('keeps a "__proto__" key from the wire as a plain key, never as a prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as Record<string, unknown>
    const decoded = decodeFrame(encodeFrame({ value, bytes: new Uint8Array([1]) })) as { value: Record<string, unknown> }
    expect(Object.getPrototypeOf(decoded.value)).toBe(Object.prototype)
    expect(Object.hasOwn(decoded.value, '__proto__')).toBe(true)
    expect((decoded.value as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it('rejects malformed frames with FrameError, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        try {
          decodeFrame(bytes)
        } catch (error) {
          expect(error).toBeInstanceOf(FrameError)
        }
      }),
      { numRuns: 300 }
    )
    expect(() => decodeFrame('{')).toThrow(FrameError)
    const truncated = encodeFrame({ b: new Uint8Array([1, 2, 3]) }) as Uint8Array
    expect(() => decodeFrame(truncated.subarray(0, truncated.length - 1))).toThrow(FrameError)
  })

  it('skips the byte search when told the message has none', () => {
    const message = { t: 'result', id: 1, result: { ok: true, value: { list: [1, 2, 3] } } }
    expect(encodeFrame(message, false)).toBe(JSON.stringify(message))
  })

  it('recognises message shapes', () => {
    expect(isClientMessage({ t: 'invoke', id: 1, command: 'app.info' })).toBe(true)
    expect(isClientMessage({ t: 'invoke', id: 1.5, command: 'app.info' })).toBe(false)
    expect(isClientMessage({ t: 'invoke', command: 'app.info' })).toBe(false)
    expect(isClientMessage({ t: 'notice', notice: 'ssh.ack', input: { terminalId: 't', bytes: 1 } })).toBe(true)
    expect(isClientMessage({ t: 'notice', input: {} })).toBe(false)
    expect(isClientMessage({ t: 'no-downlink' })).toBe(true)
    expect(isClientMessage({ t: 'no-such' })).toBe(false)
    expect(isServerMessage({ t: 'hello', clientId: 'ws-1' })).toBe(true)
    expect(isServerMessage({ t: 'result', id: 1, result: { ok: true, value: 1 } })).toBe(true)
    expect(isServerMessage({ t: 'event', event: 'tray', payload: {} })).toBe(true)
    expect(isServerMessage({ t: 'other' })).toBe(false)
  })
})
