import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../../shared/clock'
import { BATCH_MAX_BYTES, Utf8Batcher } from './batcher'
import { utf8SafeLength } from './utf8'

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)

describe('utf8SafeLength', () => {
  it.each([
    ['ascii', [0x61, 0x62], 2],
    ['complete 2-byte', [0x61, 0xc3, 0xa9], 3],
    ['lead of a 2-byte held back', [0x61, 0xc3], 1],
    ['2 of 3 bytes held back', [0x61, 0xe2, 0x82], 1],
    ['complete 3-byte', [0xe2, 0x82, 0xac], 3],
    ['3 of 4 bytes held back', [0xf0, 0x9f, 0x98], 0],
    ['complete 4-byte', [0xf0, 0x9f, 0x98, 0x80], 4],
    ['stray continuation bytes pass', [0x80, 0x80, 0x80, 0x80], 4],
    ['invalid lead passes', [0x61, 0xff], 2]
  ])('%s', (_name, input, expected) => {
    expect(utf8SafeLength(Uint8Array.from(input))).toBe(expected)
  })
})

describe('Utf8Batcher', () => {
  function setup(maxBytes = BATCH_MAX_BYTES) {
    const clock = new ManualClock()
    const batches: Uint8Array[] = []
    const batcher = new Utf8Batcher({ clock, send: (batch) => batches.push(batch), maxBytes })
    return { clock, batches, batcher }
  }

  it('with `soon`, sends what waits on a 0 ms timer, also when a 16 ms one was set before', () => {
    const { clock, batches, batcher } = setup()
    batcher.push(bytes('typed '))
    batcher.push(bytes('flood'), true)
    clock.advance(0)
    expect(batches.map((batch) => new TextDecoder().decode(batch))).toEqual(['typed flood'])
    clock.advance(20)
    expect(batches).toHaveLength(1)
  })

  it('sends small writes together once 16 ms have passed', () => {
    const { clock, batches, batcher } = setup()
    batcher.push(bytes('he'))
    batcher.push(bytes('llo'))
    clock.advance(15)
    expect(batches).toHaveLength(0)
    clock.advance(1)
    expect(batches.map((batch) => new TextDecoder().decode(batch))).toEqual(['hello'])
  })

  it('sends at once when 64 KiB are waiting, in batches no larger than that', () => {
    const { batches, batcher } = setup()
    batcher.push(new Uint8Array(BATCH_MAX_BYTES * 2 + 10).fill(0x61))
    expect(batches.map((batch) => batch.length)).toEqual([BATCH_MAX_BYTES, BATCH_MAX_BYTES])
    expect(batcher.pendingBytes).toBe(10)
  })

  it('keeps a split character for the next batch', () => {
    const { clock, batches, batcher } = setup()
    const euro = bytes('€') // e2 82 ac
    batcher.push(Uint8Array.from([0x61, euro[0]!, euro[1]!]))
    clock.advance(16)
    expect(Array.from(batches[0]!)).toEqual([0x61])
    batcher.push(Uint8Array.from([euro[2]!]))
    clock.advance(16)
    expect(new TextDecoder().decode(batches[1])).toBe('€')
  })

  it('never splits a character and loses or reorders nothing, for any text and any chunking', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1 }),
        fc.integer({ min: 4, max: 40 }),
        (text, cuts, maxBytes) => {
          const { clock, batches, batcher } = setup(maxBytes)
          const all = bytes(text)
          let offset = 0
          let turn = 0
          while (offset < all.length) {
            const size = cuts[turn++ % cuts.length]!
            batcher.push(all.slice(offset, offset + size))
            offset += size
            if (turn % 3 === 0) clock.advance(16)
          }
          batcher.flush(true)
          const decoder = new TextDecoder('utf-8', { fatal: true })
          for (const batch of batches) {
            expect(batch.length).toBeLessThanOrEqual(maxBytes)
            decoder.decode(batch) // throws on a split sequence
          }
          expect(batches.map((batch) => new TextDecoder().decode(batch)).join('')).toBe(text)
        }
      )
    )
  })

  it('drops everything once closed', () => {
    const { clock, batches, batcher } = setup()
    batcher.push(bytes('x'))
    batcher.close()
    batcher.push(bytes('y'))
    clock.advance(100)
    expect(batches).toEqual([])
  })
})
