import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Result } from '../../../shared/contract'

const bridge = await vi.hoisted(async () => (await import('../testing/fake-bridge')).createFakeBridge())
vi.mock('./bridge', () => bridge.module)

const { Mirror } = await import('./mirror.svelte')

/** A read the test answers when it likes. */
function pending<T>(): { read: () => Promise<Result<T>>; answer: (result: Result<T>) => void } {
  let answer!: (result: Result<T>) => void
  return { read: () => new Promise((resolve) => (answer = resolve)), answer: (result) => answer(result) }
}

beforeEach(() => bridge.reset())

describe('a mirror of main', () => {
  it('shows the initial value, then each event, and tells its store of each change', () => {
    const changes: unknown[] = []
    const mirror = new Mirror({
      event: 'tunnels',
      read: pending<[]>().read,
      initial: [],
      changed: (value) => changes.push(value)
    })
    mirror.listen()
    expect(mirror.value).toEqual([])
    const opened = [{ tunnelId: 't' }]
    bridge.emit('tunnels', opened)
    expect(mirror.value).toBe(opened)
    expect(changes).toEqual([opened])
  })

  it('a failed read is kept as its error, and the next answer clears it', async () => {
    const first = pending<null>()
    const mirror = new Mirror({ event: 'settings', read: first.read, initial: null })
    const loading = mirror.load()
    first.answer({ ok: false, error: { kind: 'network', message: 'down' } })
    await loading
    expect(mirror.error?.message).toBe('down')
    await mirror.ask(async () => ({ ok: true, value: null }))
    expect(mirror.error).toBeNull()
  })

  it('where an event carries a part, an overtaken answer keeps the parts the event did not bring', async () => {
    const read = pending<{ id: string; message: string }[]>()
    const mirror = new Mirror({
      event: 'warning',
      read: read.read,
      initial: [] as { id: string; message: string }[],
      fromEvent: (warning, list) => [...list, warning],
      keepOvertaken: (answer, list) => [...answer.filter((w) => !list.some((shown) => shown.id === w.id)), ...list]
    })
    mirror.listen()
    const loading = mirror.load()
    read.answer({ ok: true, value: [{ id: 'a', message: 'older' }] })
    bridge.emit('warning', { id: 'b', message: 'newer' })
    await loading
    expect(mirror.value.map((w) => w.id)).toEqual(['a', 'b'])
  })

  it('a state with its own time never goes back to an older one', () => {
    const mirror = new Mirror({
      event: 'cost',
      read: pending<{ at: number } | null>().read,
      initial: null as { at: number } | null,
      newer: (next, current) => !current || !next || next.at >= current.at
    })
    mirror.set({ at: 2 })
    mirror.set({ at: 1 })
    expect(mirror.value).toEqual({ at: 2 })
  })
})
