/** The keep-awake glue against a recording powerSaveBlocker (Electron cannot run here). */
import { describe, expect, it, vi } from 'vitest'

class FakeBlocker {
  readonly calls: string[] = []
  private next = 1
  readonly started = new Set<number>()
  refuse = false
  start(type: string): number {
    if (this.refuse) throw new Error('no power management here')
    const id = this.next++
    this.started.add(id)
    this.calls.push(`start ${type} → ${id}`)
    return id
  }
  stop(id: number): boolean {
    this.calls.push(`stop ${id}`)
    return this.started.delete(id)
  }
  isStarted(id: number): boolean {
    return this.started.has(id)
  }
}

const electronBlocker = new FakeBlocker()
vi.mock('electron', () => ({ powerSaveBlocker: electronBlocker }))
const { createKeepAwake } = await import('./power-save-adapter')

describe('keep-awake adapter', () => {
  it("holds Electron's prevent-app-suspension blocker from true to false, once each", () => {
    const lines: string[] = []
    const keepAwake = createKeepAwake((line) => lines.push(line))
    keepAwake(true)
    keepAwake(true)
    expect(electronBlocker.calls).toEqual(['start prevent-app-suspension → 1'])
    keepAwake(false)
    keepAwake(false)
    expect(electronBlocker.calls).toEqual(['start prevent-app-suspension → 1', 'stop 1'])
    expect(electronBlocker.started.size).toBe(0)
    expect(lines).toEqual([
      'keeping the computer awake: a file transfer is running',
      'the computer may sleep again: no file transfer is running'
    ])
  })

  it('starts a new blocker for the next transfer', () => {
    const blocker = new FakeBlocker()
    const keepAwake = createKeepAwake(() => {}, blocker)
    keepAwake(true)
    keepAwake(false)
    keepAwake(true)
    expect(blocker.calls).toEqual(['start prevent-app-suspension → 1', 'stop 1', 'start prevent-app-suspension → 2'])
  })

  it('a blocker that refuses is logged, never thrown into the transfer that asked', () => {
    const blocker = new FakeBlocker()
    blocker.refuse = true
    const lines: string[] = []
    const keepAwake = createKeepAwake((line) => lines.push(line), blocker)
    expect(() => keepAwake(true)).not.toThrow()
    expect(() => keepAwake(false)).not.toThrow()
    expect(lines).toEqual(['keeping the computer awake: no power management here'])
  })
})
