import { describe, expect, it } from 'vitest'
import { EventHub } from './event-hub'

const warning = { id: 'w', message: 'm' }

describe('EventHub', () => {
  it('tells every transport, even when one throws, and forgets a transport that unsubscribed', () => {
    const hub = new EventHub()
    const heard: string[] = []
    hub.subscribe(() => {
      throw new Error('a broken transport')
    })
    const off = hub.subscribe((event, _payload, target) => void heard.push(`${event}${target ? ` → ${target}` : ''}`))
    hub.emit('warning', warning)
    hub.emit('ssh.status', { terminalId: 't', state: 'connected', message: '' }, 'c1')
    off()
    hub.emit('warning', warning)
    expect(heard).toEqual(['warning', 'ssh.status → c1'])
  })

  it('tells the transports first, then the parts in the order they began to listen', () => {
    const hub = new EventHub()
    const heard: string[] = []
    hub.on('warning', () => void heard.push('first part'))
    hub.subscribe((event) => void heard.push(`transport: ${event}`))
    hub.on('warning', () => void heard.push('second part'))
    hub.on('settings', () => void heard.push('a part of another event'))
    hub.emit('warning', warning)
    expect(heard).toEqual(['transport: warning', 'first part', 'second part'])
  })

  it('a consequence a part emits reaches the windows after the fact that caused it', () => {
    const hub = new EventHub()
    const windows: string[] = []
    hub.subscribe((event) => void windows.push(event))
    hub.on('transitions', () => hub.emit('warning', warning))
    hub.emit('transitions', [])
    expect(windows).toEqual(['transitions', 'warning'])
  })

  it('a part that throws is logged and the parts after it still hear the event; one that stopped listening does not', () => {
    const lines: string[] = []
    const hub = new EventHub({ error: (message, data) => void lines.push(`${message} ${JSON.stringify(data)}`) })
    const heard: unknown[] = []
    hub.on('warning', () => {
      throw new Error('a broken part')
    })
    const off = hub.on('warning', (payload) => void heard.push(payload))
    hub.on('warning', () => void heard.push('last'))
    hub.emit('warning', warning)
    off()
    hub.emit('warning', warning)
    expect(heard).toEqual([warning, 'last', 'last'])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^a part of main failed on the warning event .*a broken part/)
  })

  it('a transport that throws is logged too', () => {
    const lines: string[] = []
    const hub = new EventHub({ error: (message) => void lines.push(message) })
    hub.subscribe(() => {
      throw new Error('gone')
    })
    hub.emit('warning', warning)
    expect(lines).toEqual(['a transport failed on the warning event'])
  })
})

describe('EventHub failures', () => {
  it('tells of a sink that throws (never silently), counts it, and tells once that kind goes out again', () => {
    const failed: string[] = []
    const recovered: string[] = []
    const hub = new EventHub()
    hub.report({ failed: (event) => void failed.push(event), recovered: (event) => void recovered.push(event) })
    let broken = true
    hub.subscribe((event) => {
      // A transport that cannot serialise a cost snapshot (JSON.stringify's "Invalid string length").
      if (broken && event === 'warning') throw new RangeError('Invalid string length')
    })
    const heard: string[] = []
    hub.subscribe((event) => void heard.push(event))
    hub.emit('warning', { id: 'w', message: 'm' })
    hub.emit('ssh.status', { terminalId: 't', state: 'connected', message: '' })
    expect(failed).toEqual(['warning'])
    expect(hub.lost).toBe(1)
    expect(recovered).toEqual([])
    broken = false
    hub.emit('warning', { id: 'w', message: 'm' })
    hub.emit('warning', { id: 'w', message: 'm' })
    expect(recovered).toEqual(['warning'])
    expect(heard).toEqual(['warning', 'ssh.status', 'warning', 'warning'])
  })

  it('a listener of failures that throws does not stop the delivery', () => {
    const hub = new EventHub()
    hub.report({
      failed: () => {
        throw new Error('the listener broke too')
      }
    })
    hub.subscribe(() => {
      throw new Error('broken transport')
    })
    const heard: string[] = []
    hub.subscribe((event) => void heard.push(event))
    expect(() => hub.emit('warning', { id: 'w', message: 'm' })).not.toThrow()
    expect(heard).toEqual(['warning'])
  })
})
