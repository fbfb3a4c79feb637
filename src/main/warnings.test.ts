import { describe, expect, it } from 'vitest'
import { EventHub } from './event-hub'
import { Warnings } from './warnings'

describe('Warnings', () => {
  it('announces each warning and lists the latest per id', () => {
    const hub = new EventHub()
    const announced: unknown[] = []
    hub.subscribe((event, payload) => void announced.push([event, payload]))
    const warnings = new Warnings(hub.emit)
    warnings.warn('keychain', 'first')
    warnings.warn('sandbox', 'down')
    warnings.warn('keychain', 'second')
    expect(warnings.all()).toEqual([
      { id: 'keychain', message: 'second' },
      { id: 'sandbox', message: 'down' }
    ])
    expect(announced).toHaveLength(3)
  })
})

describe('Warnings.clear', () => {
  it('takes a warning off the list and tells the windows it is cleared; an unknown id says nothing', () => {
    const hub = new EventHub()
    const announced: unknown[] = []
    hub.subscribe((event, payload) => void announced.push([event, payload]))
    const warnings = new Warnings(hub.emit)
    warnings.warn('part:tray', 'The tray menu could not be brought up to date.')
    warnings.clear('part:tray')
    warnings.clear('part:tray')
    expect(warnings.all()).toEqual([])
    expect(announced).toEqual([
      ['warning', { id: 'part:tray', message: 'The tray menu could not be brought up to date.' }],
      ['warning', { id: 'part:tray', message: '', cleared: true }]
    ])
  })
})
