import { describe, expect, it } from 'vitest'
import { EventHub } from './event-hub'
import { Warnings } from './warnings'

/** Warnings on a hub, with every event the hub announces recorded as [event, payload]. */
function announcing(): { warnings: Warnings; announced: unknown[] } {
  const hub = new EventHub()
  const announced: unknown[] = []
  hub.subscribe((event, payload) => void announced.push([event, payload]))
  return { warnings: new Warnings(hub.emit), announced }
}

describe('Warnings', () => {
  it('announces each warning and lists the latest per id', () => {
    const { warnings, announced } = announcing()
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
    const { warnings, announced } = announcing()
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
