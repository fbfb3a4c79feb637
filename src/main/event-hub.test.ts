import { describe, expect, it } from 'vitest'
import { EventHub } from './event-hub'

describe('EventHub', () => {
  it('tells every sink, even when one throws, and forgets a sink that unsubscribed', () => {
    const hub = new EventHub()
    const heard: string[] = []
    hub.subscribe(() => {
      throw new Error('a broken transport')
    })
    const off = hub.subscribe((event, _payload, target) => void heard.push(`${event}${target ? ` → ${target}` : ''}`))
    hub.emit('warning', { id: 'w', message: 'm' })
    hub.emit('ssh.status', { terminalId: 't', state: 'connected', message: '' }, 'c1')
    off()
    hub.emit('warning', { id: 'w', message: 'm' })
    expect(heard).toEqual(['warning', 'ssh.status → c1'])
  })
})

describe('EventHub failures', () => {
  it('tells of a sink that throws (never silently), counts it, and tells once that kind goes out again', () => {
    const failed: string[] = []
    const recovered: string[] = []
    const hub = new EventHub({ failed: (event) => void failed.push(event), recovered: (event) => void recovered.push(event) })
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
    const hub = new EventHub({
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
