import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { CHANNEL_READ_AHEAD, MIN_READ_AHEAD, limitReadAhead, readAheadFor } from './read-ahead'

describe('readAheadFor', () => {
  // Parse speeds in bytes per ms: `yes` ~2,500; plain 58-character lines ~40,000.
  it.each([
    [undefined, CHANNEL_READ_AHEAD],
    [0, CHANNEL_READ_AHEAD],
    [Number.NaN, CHANNEL_READ_AHEAD],
    [1_000, MIN_READ_AHEAD],
    [2_500, MIN_READ_AHEAD],
    [8_000, 40_000],
    [40_000, CHANNEL_READ_AHEAD]
  ])('output parsed at %s bytes/ms gets %i bytes of read-ahead', (parseSpeed, expected) => {
    expect(readAheadFor(parseSpeed)).toBe(expected)
  })
})

describe('limitReadAhead', () => {
  it("sets the stream's high-water mark, again when called again", () => {
    const stream = new Readable({ read() {} })
    limitReadAhead(stream)
    expect(stream.readableHighWaterMark).toBe(CHANNEL_READ_AHEAD)
    limitReadAhead(stream, readAheadFor(2_500))
    expect(stream.readableHighWaterMark).toBe(MIN_READ_AHEAD)
  })
})
