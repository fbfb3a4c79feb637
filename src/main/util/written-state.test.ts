import { describe, expect, it } from 'vitest'
import { WrittenState } from './written-state'

/** A file stand-in: each write waits until the test lets it finish or fail. */
function heldFile() {
  const written: string[][] = []
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = []
  const write = (value: string[]): Promise<void> =>
    new Promise((resolve, reject) => {
      pending.push({
        resolve: () => {
          written.push(value)
          resolve()
        },
        reject
      })
    })
  const next = async (): Promise<(typeof pending)[number]> => {
    while (pending.length === 0) await new Promise((resolve) => setImmediate(resolve))
    return pending.shift()!
  }
  return { written, write, next }
}

describe('a value kept in a file', () => {
  it('is changed only once written; a change made meanwhile builds on it', async () => {
    const file = heldFile()
    const state = new WrittenState<string[]>([], file.write)
    const first = state.update((list) => [...list, 'a'])
    const second = state.update((list) => [...list, 'b'])
    ;(await file.next()).resolve()
    expect(await first).toEqual(['a'])
    expect(state.get()).toEqual(['a'])
    ;(await file.next()).resolve()
    expect(await second).toEqual(['a', 'b'])
    expect(file.written).toEqual([['a'], ['a', 'b']])
  })

  it('a failed write changes nothing, and the next change builds on what was kept', async () => {
    const file = heldFile()
    const state = new WrittenState<string[]>(['kept'], file.write)
    const refused = state.update((list) => [...list, 'lost'])
    const after = state.update((list) => [...list, 'next'])
    expect(state.get()).toEqual(['kept'])
    ;(await file.next()).reject(new Error('disk full'))
    await expect(refused).rejects.toThrow('disk full')
    expect(state.get()).toEqual(['kept'])
    ;(await file.next()).resolve()
    expect(await after).toEqual(['kept', 'next'])
  })

  it('a change that throws is refused the same way', async () => {
    const file = heldFile()
    const state = new WrittenState<string[]>(['kept'], file.write)
    await expect(
      state.update(() => {
        throw new Error('not allowed')
      })
    ).rejects.toThrow('not allowed')
    expect(state.get()).toEqual(['kept'])
  })
})
