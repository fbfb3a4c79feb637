import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DownlinkDecoder, DownlinkError } from './downlink'
import { downlinkBytes } from './testing/downlink-bytes'

const stream = downlinkBytes

const frameArb = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.uint8Array({ maxLength: 300 }))

describe('downlink records', () => {
  it('gives back text and binary frames, several per read', () => {
    const decoder = new DownlinkDecoder()
    const frames = decoder.push(stream(['{"t":"hello"}', new Uint8Array([1, 2, 3]), 'é ✓']))
    expect(frames).toEqual(['{"t":"hello"}', new Uint8Array([1, 2, 3]), 'é ✓'])
    expect(decoder.pendingBytes).toBe(0)
  })

  it('keeps a record cut anywhere (inside its head or its body) until the rest arrives', () => {
    const bytes = stream(['first', new Uint8Array(70_000).fill(7), 'last'])
    for (const cut of [1, 4, 5, 6, 20, 70_000, bytes.length - 1]) {
      const decoder = new DownlinkDecoder()
      const early = decoder.push(bytes.slice(0, cut))
      const late = decoder.push(bytes.slice(cut))
      expect([...early, ...late]).toHaveLength(3)
      expect(decoder.pendingBytes).toBe(0)
    }
  })

  it('hands a binary frame that lies whole in one read over as a view of it, and joins one cut across reads once', () => {
    const bytes = stream([new Uint8Array(1000).fill(1), new Uint8Array(1000).fill(2)])
    const decoder = new DownlinkDecoder()
    const [first] = decoder.push(bytes.subarray(0, 1500))
    expect((first as Uint8Array).buffer).toBe(bytes.buffer)
    expect(decoder.pendingBytes).toBe(1500 - 1005)
    // The second record's rest comes in two more reads: nothing until the last, then one frame.
    expect(decoder.push(bytes.subarray(1500, 1700))).toEqual([])
    const [second] = decoder.push(bytes.subarray(1700))
    expect(second).toEqual(new Uint8Array(1000).fill(2))
    expect(decoder.pendingBytes).toBe(0)
  })

  it('round-trips any frames over any split of the stream', () => {
    fc.assert(
      fc.property(fc.array(frameArb, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), (frames, cuts) => {
        const bytes = stream(frames)
        const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
        const decoder = new DownlinkDecoder()
        const out: (string | Uint8Array)[] = []
        let from = 0
        for (const point of [...points, bytes.length]) {
          for (const part of decoder.push(bytes.slice(from, point))) out.push(part)
          from = point
        }
        expect(out).toEqual(frames)
        expect(decoder.pendingBytes).toBe(0)
      })
    )
  })

  it('refuses an empty record, an oversized one and an unknown kind', () => {
    expect(() => new DownlinkDecoder().push(new Uint8Array([0, 0, 0, 0, 0]))).toThrow(DownlinkError)
    expect(() => new DownlinkDecoder(100).push(new Uint8Array([0, 0, 1, 0, 0]))).toThrow(DownlinkError)
    expect(() => new DownlinkDecoder().push(new Uint8Array([0, 0, 0, 2, 9, 0]))).toThrow(/unknown kind/)
  })
})
