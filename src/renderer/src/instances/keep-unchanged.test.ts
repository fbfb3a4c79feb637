import { describe, expect, it } from 'vitest'
import type { InstancesSnapshot } from '../../../shared/contract'
import { makeInstances } from '../testing/instances'
import { keepUnchanged } from './keep-unchanged'

const snapshot = (instances = makeInstances(5)): InstancesSnapshot => ({ instances, fetchedAt: 1, mode: 'steady' })

describe('keepUnchanged', () => {
  it('keeps the objects it holds for unchanged instances and takes the changed one', () => {
    const before = snapshot()
    const next = snapshot(structuredClone(before.instances))
    next.instances[2]!.instanceRuntimeInfo.status = 'Stopping'
    const kept = keepUnchanged(next, before)!
    expect(kept.instances.map((instance, i) => instance === before.instances[i])).toEqual([true, true, false, true, true])
    expect(kept.instances[2]!.instanceRuntimeInfo.status).toBe('Stopping')
    expect(kept.fetchedAt).toBe(next.fetchedAt)
  })

  it('keeps the whole array when nothing changed, and follows a new order or a new member', () => {
    const before = snapshot()
    expect(keepUnchanged(snapshot(structuredClone(before.instances)), before)!.instances).toBe(before.instances)
    const reordered = keepUnchanged(snapshot(structuredClone(before.instances).reverse()), before)!
    expect(reordered.instances).not.toBe(before.instances)
    expect(reordered.instances[0]).toBe(before.instances[4])
    const grown = snapshot([...structuredClone(before.instances), ...makeInstances(6).slice(5)])
    const kept = keepUnchanged(grown, before)!
    expect(kept.instances).toHaveLength(6)
    expect(kept.instances[5]).toBe(grown.instances[5])
  })

  it('passes a first snapshot, or none, through', () => {
    const first = snapshot()
    expect(keepUnchanged(first, null)).toBe(first)
    expect(keepUnchanged(null, first)).toBeNull()
  })
})
