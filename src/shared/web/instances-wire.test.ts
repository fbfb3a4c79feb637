import { describe, expect, it } from 'vitest'
import type { InstancesSnapshot } from '../contract'
import { makeInstance } from '../testing/instance'
import { fromWire, packInstances, toWire, unpackInstances } from './instances-wire'

function list(count: number) {
  return Array.from({ length: count }, (_, i) =>
    makeInstance({ id: `notebook-${i}`, name: `inst-${i}`, status: i % 2 ? 'Running' : 'Stopped', createdAt: 1_000 + i })
  )
}

describe('the instance list on the WebSocket', () => {
  it('comes back equal to what main sent, through JSON', () => {
    const instances = list(5)
    const { imageInfo: _image, ...withoutImage } = instances[1]!.instanceSpecInfo
    instances[1] = { ...instances[1]!, instanceSpecInfo: withoutImage }
    instances[2]!.instanceSpecInfo.regionInfo = { ...instances[2]!.instanceSpecInfo.regionInfo, name: 'Frankfurt 2' }
    const sent = JSON.parse(JSON.stringify(packInstances(instances))) as ReturnType<typeof packInstances>
    expect(unpackInstances(sent)).toEqual(instances)
    expect(unpackInstances(sent)[1]!.instanceSpecInfo).not.toHaveProperty('imageInfo')
  })

  it('sends each shared part once, and the page holds one object for it', () => {
    const instances = list(100)
    const wire = packInstances(instances)
    // Billing, image, configuration, type, region, storages and owner: one of each for a hundred alike instances.
    expect(wire.parts).toHaveLength(7)
    const text = JSON.stringify(wire)
    expect(text.length).toBeLessThan(JSON.stringify(instances).length / 2)
    const back = unpackInstances(JSON.parse(text) as typeof wire)
    expect(back[0]!.instanceSpecInfo.regionInfo).toBe(back[99]!.instanceSpecInfo.regionInfo)
    expect(back[0]!.instanceMetadata.instanceAuth).toBe(back[99]!.instanceMetadata.instanceAuth)
  })

  it('sends fields as columns: each field name once per message, not once per instance', () => {
    const instances = list(50)
    const text = JSON.stringify(packInstances(instances))
    expect(text.split('"createAtUnixMs"')).toHaveLength(2)
    expect(text.split('"nodePorts"')).toHaveLength(2)
    // Still every instance's own values.
    expect(text.split('"inst-')).toHaveLength(51)
  })

  it('keeps what only some instances have where they have it (a phase, disk usage, a spot flag)', () => {
    const instances = list(4)
    instances[2] = makeInstance({
      id: 'notebook-2',
      name: 'inst-2',
      runtime: { phase: 'Pulling', instanceDiskUsageInfo: { rootDiskUsedGi: 3, dataDiskUsedGi: 0 } }
    })
    const { isSpotInstance: _spot, ...noSpot } = instances[3]!.instanceSpecInfo
    instances[3] = { ...instances[3]!, instanceSpecInfo: noSpot }
    const back = unpackInstances(JSON.parse(JSON.stringify(packInstances(instances))) as ReturnType<typeof packInstances>)
    expect(back).toEqual(instances)
    expect(back[1]!.instanceRuntimeInfo).not.toHaveProperty('phase')
    expect(back[1]!.instanceRuntimeInfo).not.toHaveProperty('instanceDiskUsageInfo')
    expect(back[3]!.instanceSpecInfo).not.toHaveProperty('isSpotInstance')
  })

  it('an empty list', () => {
    expect(unpackInstances(JSON.parse(JSON.stringify(packInstances([]))) as ReturnType<typeof packInstances>)).toEqual([])
  })

  it('changes only the instance list event; other events pass as they are', () => {
    const snapshot: InstancesSnapshot = { instances: list(2), fetchedAt: 5, mode: 'steady', stuck: [] }
    const wire = toWire('instances', snapshot) as { instances: unknown; fetchedAt: number }
    expect(wire.fetchedAt).toBe(5)
    expect(Array.isArray(wire.instances)).toBe(false)
    expect(fromWire('instances', JSON.parse(JSON.stringify(wire)))).toEqual(snapshot)
    const balance = { amount: 3 }
    expect(toWire('balance', balance)).toBe(balance)
    expect(fromWire('balance', balance)).toBe(balance)
  })
})
