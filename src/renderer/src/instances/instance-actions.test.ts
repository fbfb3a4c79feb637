import { describe, expect, it } from 'vitest'
import {
  INSTANCE_STATUSES,
  canOpenNotebook,
  canOpenPorts,
  canOpenTerminal,
  canStop,
  canTerminate,
  forwardedPorts,
  listedPorts,
  sshEntry
} from '../../../shared/instance-rules'
import { actionButtons, actionState, displayStatus, reconcilePending } from './instance-actions'
import { filterInstances, isFiltering, sortNewestFirst } from './instance-filter'
import { virtualWindow } from '../lib/virtual-window'
import { makeInstance, makeInstances } from '../testing/instances'

describe('the action buttons', () => {
  it('a row: short words, the instance named in what is spoken; the details: the long words', () => {
    const row = actionButtons('row', 'train', false)
    expect(row.map((button) => button.label)).toEqual(['Notebook', 'Terminal', 'Ports', 'Stop', 'Delete'])
    expect(row[0]!.spoken).toBe('Open notebook train')
    expect(row.filter((button) => button.danger).map((button) => button.action)).toEqual(['delete'])
    expect(actionButtons('detail', 'train', false)[0]!.label).toBe('Open notebook')
  })

  it('where the notebook asks for the password once, both say so', () => {
    const [row] = actionButtons('row', 'train', true)
    expect(row).toMatchObject({ label: 'Notebook…', spoken: 'Open notebook train (asks for your password once)' })
    expect(row!.note).toMatch(/password once/)
    expect(actionButtons('detail', 'train', true)[0]!.label).toBe('Open notebook (asks for your password once)')
  })
})

describe('row actions', () => {
  it('enables everything on a running instance with ports', () => {
    const instance = makeInstance()
    for (const action of ['notebook', 'terminal', 'ports', 'stop', 'delete'] as const) {
      expect(actionState(instance, action).enabled).toBe(true)
    }
  })

  it('disables reach actions until Running, with a reason', () => {
    const instance = makeInstance({ status: 'Initializing' })
    expect(actionState(instance, 'notebook')).toEqual({
      enabled: false,
      reason: 'The notebook opens once the instance is Running (now Preparing).'
    })
    expect(actionState(instance, 'terminal').enabled).toBe(false)
    expect(actionState(instance, 'stop').enabled).toBe(true)
  })

  it('disables Terminal without port 22 and Ports without forwarded ports', () => {
    const instance = makeInstance()
    instance.instanceSpecInfo.nodePorts = []
    expect(actionState(instance, 'terminal').enabled).toBe(false)
    expect(actionState(instance, 'ports').enabled).toBe(false)
  })

  it('cannot stop what is stopped or stopping; cannot delete what is released', () => {
    expect(actionState(makeInstance({ status: 'Stopped' }), 'stop').enabled).toBe(false)
    expect(actionState(makeInstance(), 'stop', 'stopping').enabled).toBe(false)
    expect(actionState(makeInstance({ status: 'Released' }), 'delete').enabled).toBe(false)
    expect(actionState(makeInstance({ status: 'Stopped' }), 'delete').enabled).toBe(true)
  })

  it.each([...INSTANCE_STATUSES, 'Hibernating'])('offers exactly what main allows while %s', (status) => {
    const instance = makeInstance({ status })
    expect({
      notebook: actionState(instance, 'notebook').enabled,
      terminal: actionState(instance, 'terminal').enabled,
      ports: actionState(instance, 'ports').enabled,
      stop: actionState(instance, 'stop').enabled,
      delete: actionState(instance, 'delete').enabled
    }).toEqual({
      notebook: canOpenNotebook(instance),
      terminal: canOpenTerminal(instance),
      ports: canOpenPorts(instance),
      stop: canStop(instance),
      delete: canTerminate(instance)
    })
  })

  it('explains a Running instance the cloud gave no SSH address', () => {
    const instance = makeInstance({ sshAddress: '', nodePorts: [{ port: 22, nodePort: 30022 }] })
    expect(actionState(instance, 'terminal')).toEqual({
      enabled: false,
      reason: 'The cloud has not said where this instance answers SSH yet.'
    })
  })

  it('shows Stopping… at once, until the watcher says Stopped', () => {
    expect(displayStatus(makeInstance(), 'stopping')).toBe('Stopping…')
    expect(displayStatus(makeInstance({ status: 'Stopped' }), 'stopping')).toBe('Stopped')
    expect(displayStatus(makeInstance())).toBe('Running')
  })
})

describe('filter', () => {
  it('filters by name substring and status group', () => {
    const all = makeInstances(20)
    const names = filterInstances(all, { name: 'INST-001', status: 'all' }).map((i) => i.instanceSpecInfo.name)
    expect(names).toEqual(Array.from({ length: 10 }, (_, i) => `inst-00${10 + i}`))
    const failed = filterInstances(all, { name: '', status: 'failed' })
    expect(failed.length).toBe(4)
    expect(failed.every((i) => i.instanceRuntimeInfo.status === 'StartingFailed')).toBe(true)
    expect(isFiltering({ name: ' ', status: 'all' })).toBe(false)
  })
})

describe('the list as the view derives it, at 1000 instances', () => {
  it('with no filter, and already newest first (as the cloud lists), the view gets the snapshot’s own array: nothing copied', () => {
    const all = makeInstances(1000)
    expect(sortNewestFirst(all)).toBe(all)
    expect(filterInstances(all, { name: '  ', status: 'all' })).toBe(all)
  })

  it('sorts a list that is not newest first, without changing it', () => {
    const listed = [
      makeInstance({ id: 'old', createdAt: 1 }),
      makeInstance({ id: 'new', createdAt: 3 }),
      makeInstance({ id: 'mid', createdAt: 2 })
    ]
    const sorted = sortNewestFirst(listed)
    expect(sorted.map((i) => i.instanceMetadata.instanceId)).toEqual(['new', 'mid', 'old'])
    expect(listed.map((i) => i.instanceMetadata.instanceId)).toEqual(['old', 'new', 'mid'])
    const ties = [makeInstance({ id: 'a', createdAt: 5 }), makeInstance({ id: 'b', createdAt: 5 })]
    expect(sortNewestFirst(ties)).toBe(ties)
  })
})

describe('virtual window', () => {
  it('renders the visible rows plus overscan, padding the rest', () => {
    const w = virtualWindow(4400, 440, 44, 1000, 5)
    expect(w.start).toBe(95)
    expect(w.end).toBe(100 + 11 + 5)
    expect(w.padTop).toBe(95 * 44)
    expect(w.padTop + (w.end - w.start) * 44 + w.padBottom).toBe(1000 * 44)
  })

  it('keeps the DOM size independent of the list length', () => {
    const small = virtualWindow(0, 600, 44, 100)
    const large = virtualWindow(0, 600, 44, 1000)
    expect(large.end - large.start).toBe(small.end - small.start)
  })

  it('handles an empty list and a scroll past the end', () => {
    expect(virtualWindow(0, 600, 44, 0)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 })
    const w = virtualWindow(1e6, 600, 44, 10)
    expect(w.end).toBe(10)
    expect(w.start).toBeLessThan(10)
  })
})

describe('pending marks', () => {
  it('keeps a stop until the instance has ended, a delete until it is gone', () => {
    const running = makeInstance({ id: 'a', status: 'Running' })
    const stopping = makeInstance({ id: 'a', status: 'Stopping' })
    const stopped = makeInstance({ id: 'a', status: 'Stopped' })
    const other = makeInstance({ id: 'b', status: 'Running' })
    expect(reconcilePending({ a: 'stopping' }, [running])).toEqual({ a: 'stopping' })
    expect(reconcilePending({ a: 'stopping' }, [stopping])).toEqual({ a: 'stopping' })
    expect(reconcilePending({ a: 'stopping' }, [stopped])).toEqual({})
    expect(reconcilePending({ b: 'deleting' }, [other])).toEqual({ b: 'deleting' })
    expect(reconcilePending({ b: 'deleting' }, [running])).toEqual({})
    expect(reconcilePending({ b: 'deleting' }, [makeInstance({ id: 'b', status: 'Released' })])).toEqual({})
  })

  it('nothing pending: the same marks back, so nothing that shows them redraws for a new snapshot', () => {
    const none = {}
    expect(reconcilePending(none, makeInstances(1000))).toBe(none)
  })
})

describe('ports listed twice', () => {
  it('#12 item 7: each inside port once, with its first entry, for the detail table, the Ports panel and SSH', () => {
    const instance = makeInstance()
    const first = [
      { port: 22, address: '10.0.0.1', nodePort: 30022 },
      { port: 8888, address: '10.0.0.1', nodePort: 30888 }
    ]
    instance.instanceSpecInfo.nodePorts = [
      ...first,
      { port: 8888, address: '10.9.9.9', nodePort: 31888 },
      { port: 22, address: '10.9.9.9', nodePort: 31022 }
    ]
    expect(listedPorts(instance)).toEqual({ items: first, repeated: 2 })
    expect(forwardedPorts(instance)).toEqual([first[1]])
    expect(sshEntry(instance)).toEqual(first[0])
  })
})
