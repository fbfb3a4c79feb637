import { describe, expect, it } from 'vitest'
import { MAX_EARLY, TerminalRoutes } from './terminal-routes'

describe('routing main’s terminal events to tabs', () => {
  it('delivers to the tab that owns the terminal, and to no other', () => {
    const routes = new TerminalRoutes<string[]>()
    const a: string[] = []
    const b: string[] = []
    routes.register('t-a', a)
    routes.register('t-b', b)
    routes.deliver('t-a', (tab) => tab.push('one'))
    routes.deliver('t-b', (tab) => tab.push('two'))
    expect([a, b]).toEqual([['one'], ['two']])
  })

  it('keeps events that overtook the ssh.open answer, in order, until the tab registers', () => {
    const routes = new TerminalRoutes<string[]>()
    routes.deliver('t-1', (tab) => tab.push('status: connecting'))
    routes.deliver('t-1', (tab) => tab.push('data: $ '))
    const tab: string[] = []
    routes.register('t-1', tab)
    expect(tab).toEqual(['status: connecting', 'data: $ '])
    routes.deliver('t-1', (t) => t.push('later'))
    expect(tab).toEqual(['status: connecting', 'data: $ ', 'later'])
  })

  it(`keeps at most ${MAX_EARLY} early events per terminal`, () => {
    const routes = new TerminalRoutes<number[]>()
    for (let i = 0; i < MAX_EARLY + 10; i++) routes.deliver('t-1', (tab) => tab.push(i))
    const tab: number[] = []
    routes.register('t-1', tab)
    expect(tab).toHaveLength(MAX_EARLY)
    expect(tab.at(-1)).toBe(MAX_EARLY - 1)
  })

  it('stops delivering to a closed tab', () => {
    const routes = new TerminalRoutes<string[]>()
    const tab: string[] = []
    routes.register('t-1', tab)
    routes.unregister('t-1')
    routes.deliver('t-1', (t) => t.push('after close'))
    expect(tab).toEqual([])
  })
})
