/**
 * The pipelined writer and reader against a fake SFTP that answers when told: many requests are
 * in flight at once (never more than the limits), bytes arrive in order whatever order the
 * answers come in, a short read asks again for the rest, and the first error stops everything.
 */
import type { SFTPWrapper } from 'ssh2'
import { describe, expect, it } from 'vitest'
import { MAX_IN_FLIGHT, MAX_REQUESTS, MIN_WRITE_AHEAD, PipelinedReader, PipelinedWriter, writeAhead } from './sftp-client'

interface Pending {
  kind: 'read' | 'write'
  position: number
  length: number
  data?: Buffer
  answer: (error?: Error, bytes?: number) => void
}

function fakeSftp(file: Buffer, requestSize = 1000) {
  const pending: Pending[] = []
  const sftp = {
    _maxReadLen: requestSize,
    _maxWriteLen: requestSize,
    write(_handle: Buffer, data: Buffer, offset: number, length: number, position: number, callback: (error?: Error) => void) {
      pending.push({
        kind: 'write',
        position,
        length,
        data: Buffer.from(data.subarray(offset, offset + length)),
        answer: (error) => callback(error)
      })
    },
    read(
      _handle: Buffer,
      buffer: Buffer,
      offset: number,
      length: number,
      position: number,
      callback: (error: Error | undefined, bytes: number, data: Buffer) => void
    ) {
      pending.push({
        kind: 'read',
        position,
        length,
        answer: (error, bytes = length) => {
          const n = Math.max(0, Math.min(bytes, file.length - position))
          if (n > 0) file.copy(buffer, offset, position, position + n)
          callback(error, n, buffer.subarray(offset, offset + n))
        }
      })
    }
  }
  return { sftp: sftp as unknown as SFTPWrapper, pending }
}

describe('pipelined SFTP IO', () => {
  it('writes with many requests in flight and counts only confirmed bytes', async () => {
    const { sftp, pending } = fakeSftp(Buffer.alloc(0))
    const confirmed: number[] = []
    const writer = new PipelinedWriter([{ sftp, handle: Buffer.from('h') }], (written) => confirmed.push(written))
    writer.push(Buffer.alloc(100_000, 7))
    expect(pending).toHaveLength(MAX_REQUESTS)
    expect(writer.written).toBe(0)
    // Answers out of order: each frees a slot for the next request.
    pending.splice(3, 1)[0]!.answer()
    expect(pending).toHaveLength(MAX_REQUESTS)
    const done = writer.finish()
    while (pending.length > 0) pending.shift()!.answer()
    await done
    expect(writer.written).toBe(100_000)
    expect(confirmed.at(-1)).toBe(100_000)
  })

  it('keeps about the channel’s window of writes in flight, not more', () => {
    const requestSize = 256 * 1024
    const { sftp, pending } = fakeSftp(Buffer.alloc(0), requestSize)
    // sshd's session window: 2 MiB, so 8 requests of 256 KiB.
    Object.assign(sftp, { outgoing: { window: 2 * 1024 * 1024 } })
    const writer = new PipelinedWriter([{ sftp, handle: Buffer.from('h') }])
    writer.push(Buffer.alloc(16 * requestSize))
    expect(pending).toHaveLength(8)
    pending.shift()!.answer()
    expect(pending).toHaveLength(8)
  })

  it('sizes the write-ahead from the window: at least 2 MiB, at most MAX_IN_FLIGHT', () => {
    const withWindow = (window: unknown): SFTPWrapper => ({ outgoing: { window } }) as unknown as SFTPWrapper
    expect(writeAhead(withWindow(undefined))).toBe(MIN_WRITE_AHEAD)
    expect(writeAhead(withWindow(0))).toBe(MIN_WRITE_AHEAD)
    expect(writeAhead(withWindow(64 * 1024))).toBe(MIN_WRITE_AHEAD)
    expect(writeAhead(withWindow(6 * 1024 * 1024))).toBe(6 * 1024 * 1024)
    expect(writeAhead(withWindow(1024 * 1024 * 1024))).toBe(MAX_IN_FLIGHT)
  })

  it('stops at the first write error and reports it', async () => {
    const { sftp, pending } = fakeSftp(Buffer.alloc(0))
    let told: Error | undefined
    const writer = new PipelinedWriter(
      [{ sftp, handle: Buffer.from('h') }],
      () => {},
      (error) => (told = error)
    )
    writer.push(Buffer.alloc(5_000))
    const done = writer.finish()
    pending.shift()!.answer(Object.assign(new Error('Failure'), { code: 4 }))
    while (pending.length > 0) pending.shift()!.answer()
    await expect(done).rejects.toThrow('Failure')
    expect(told?.message).toBe('Failure')
  })

  it('reads ahead within the allowance, delivers in order, and asks again after a short read', async () => {
    const file = Buffer.from(Array.from({ length: 10_500 }, (_, i) => i % 251))
    const { sftp, pending } = fakeSftp(file)
    const got: Buffer[] = []
    let allowance = 4_000
    const reader = new PipelinedReader(
      [{ sftp, handle: Buffer.from('h') }],
      file.length,
      () => allowance,
      (_offset, data) => got.push(Buffer.from(data))
    )
    expect(pending.map((p) => p.position)).toEqual([0, 1000, 2000, 3000])
    pending.splice(2, 1)[0]!.answer() // out of order: held until 0 and 1000 are in
    pending.shift()!.answer(undefined, 400) // short: 400 of 1000, the rest is asked again
    expect(pending.some((p) => p.position === 400 && p.length === 600)).toBe(true)
    allowance = Infinity
    reader.more()
    while (pending.length > 0) pending.shift()!.answer()
    await reader.finished
    expect(Buffer.concat(got)).toEqual(file)
  })

  it('fails when the file ends early', async () => {
    const { sftp, pending } = fakeSftp(Buffer.alloc(1500))
    const reader = new PipelinedReader(
      [{ sftp, handle: Buffer.from('h') }],
      3000,
      () => Infinity,
      () => {}
    )
    while (pending.length > 0) pending.shift()!.answer()
    await expect(reader.finished).rejects.toThrow(/got shorter/)
  })

  it('spreads writes over several lanes, each within its own window, and hands back what was not confirmed', async () => {
    const requestSize = 256 * 1024
    const a = fakeSftp(Buffer.alloc(0), requestSize)
    const b = fakeSftp(Buffer.alloc(0), requestSize)
    for (const { sftp } of [a, b]) Object.assign(sftp, { outgoing: { window: 2 * 1024 * 1024 } })
    const writer = new PipelinedWriter([
      { sftp: a.sftp, handle: Buffer.from('a') },
      { sftp: b.sftp, handle: Buffer.from('b') }
    ])
    writer.push(Buffer.alloc(20 * requestSize, 1))
    // Two channels' windows in flight: twice what one lane allows.
    expect(a.pending).toHaveLength(8)
    expect(b.pending).toHaveLength(8)
    a.pending.shift()!.answer()
    b.pending.shift()!.answer()
    expect(writer.written).toBe(2 * requestSize)
    // The connection goes: every piece not confirmed (in flight or queued) is handed back, in order.
    writer.interrupt(new Error('connection lost'))
    const left = writer.unconfirmed()
    expect(left.reduce((sum, piece) => sum + piece.data.length, 0)).toBe(18 * requestSize)
    expect(left.map((piece) => piece.position)).toEqual([...left.map((piece) => piece.position)].sort((x, y) => x - y))
    expect(left.some((piece) => piece.position === 0)).toBe(false)
    await expect(writer.finish()).rejects.toThrow('connection lost')
    // A late answer of the old connection changes nothing.
    a.pending.shift()!.answer()
    expect(writer.written).toBe(2 * requestSize)
  })

  it('reads over several lanes from a starting offset and still delivers in order', async () => {
    const file = Buffer.from(Array.from({ length: 9_000 }, (_, i) => (i * 7) % 253))
    const a = fakeSftp(file)
    const b = fakeSftp(file)
    const got: Buffer[] = []
    const reader = new PipelinedReader(
      [
        { sftp: a.sftp, handle: Buffer.from('a') },
        { sftp: b.sftp, handle: Buffer.from('b') }
      ],
      file.length,
      () => Infinity,
      (_offset, data) => got.push(Buffer.from(data)),
      3_000
    )
    expect(a.pending.length).toBeGreaterThan(0)
    expect(b.pending.length).toBeGreaterThan(0)
    expect([...a.pending, ...b.pending].every((p) => p.position >= 3_000)).toBe(true)
    while (b.pending.length > 0) b.pending.pop()!.answer()
    while (a.pending.length > 0) a.pending.pop()!.answer()
    await reader.finished
    expect(Buffer.concat(got)).toEqual(file.subarray(3_000))
  })
})
