import { describe, expect, it, vi } from 'vitest'
import type { AppCore, EventSink } from '../../src/main/core-types'
import { SoakWindow, WINDOW } from './window'

/** A core that only carries events to the window and records what the window notices back. */
function fakeCore() {
  let sink: EventSink | undefined
  const notice = vi.fn()
  const core = {
    subscribe: (listener: EventSink) => {
      sink = listener
      return () => (sink = undefined)
    },
    notice
  } as unknown as AppCore
  const data = (text: string): void => sink!('ssh.data', { terminalId: 't-1', data: new TextEncoder().encode(text) }, WINDOW)
  return { core, notice, data }
}

const parsed = (notice: ReturnType<typeof vi.fn>, times: number): Promise<void> =>
  vi.waitFor(() => expect(notice).toHaveBeenCalledTimes(times), { timeout: 10_000 })

describe('the soak window', () => {
  it('reads a flood marker that tmux drew in two pieces (the screen, not the bytes)', async () => {
    const { core, notice, data } = fakeCore()
    const window = new SoakWindow(async () => {}, { cols: 120, rows: 40 })
    window.attach(core)
    // As a soak saw it: tmux ended the flood's last screen (the marker on row 39, the prompt on
    // row 40) with a cursor move into the middle of the marker.
    for (let line = 99962; line <= 100000; line++) data(`${line}\x1b[K\r\n`)
    data('FLOOD-3-1-D\x1b[K\r\n\x1b[39;12HONE\r\nroot@vm:~# \x1b[K')
    await parsed(notice, 40)
    expect(window.markers).toEqual(new Set(['3-1']))
  })

  it('counts a marker whose write was still being parsed when the window detached (a core restart)', async () => {
    const { core, data } = fakeCore()
    const window = new SoakWindow(async () => {}, { cols: 120, rows: 40 })
    window.attach(core)
    data('seq 1 3\r\n1\r\n2\r\n3\r\nFLOOD-2-5-DONE\r\n')
    window.detach()
    await vi.waitFor(() => expect(window.markers).toEqual(new Set(['2-5'])), { timeout: 10_000 })
  })

  it('acknowledges each batch once xterm has parsed it, with its byte count', async () => {
    const { core, notice, data } = fakeCore()
    const window = new SoakWindow(async () => {}, { cols: 120, rows: 40 })
    window.attach(core)
    const text = 'seq 1 3\r\n1\r\n2\r\n3\r\n'
    data(text)
    await parsed(notice, 1)
    expect(notice).toHaveBeenCalledWith('ssh.ack', { terminalId: 't-1', bytes: text.length }, { clientId: WINDOW })
    expect(window.terminalBytes).toBe(text.length)
  })
})
