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
