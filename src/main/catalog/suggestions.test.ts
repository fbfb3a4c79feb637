import { describe, expect, it } from 'vitest'
import { makeInstance } from '../../shared/testing/instance'
import { MAX_RECENT_LAUNCHES, addRecentLaunch, suggestionsFrom } from './suggestions'

describe('create-form suggestions', () => {
  it('offers recent launches first, then what the instances use, without duplicates', () => {
    const instances = [makeInstance({ id: 'a', name: 'alpha' }), makeInstance({ id: 'b', name: 'beta', status: 'Stopped' })]
    const recent = [{ imageId: 'img-1', instanceTypeId: 'gpu-a100-2', region: 'region-9', at: 5 }]
    const s = suggestionsFrom(instances, recent)
    expect(s.instanceTypes).toEqual([{ id: 'gpu-a100-2', label: 'A100 × 2', source: 'recent' }])
    expect(s.regions).toEqual([
      { id: 'region-9', label: 'region-9', source: 'recent' },
      { id: 'sg-1', label: 'Singapore 1', source: 'instances' }
    ])
    expect(s.images).toEqual([{ id: 'img-1', label: 'img-1', source: 'recent' }])
    expect(s.prices).toEqual([{ instanceTypeId: 'gpu-a100-2', chargeMode: 'perHour', price: 1.2, unit: '$' }])
  })

  it("never offers an image's display name as an image id", () => {
    const withImage = makeInstance({ id: 'a', name: 'alpha' })
    withImage.instanceSpecInfo.imageInfo = { architecture: 'x86_64', isPublic: 'true', name: 'PyTorch 2.5.1 / CUDA 12.4', tags: null, type: 'public' }
    expect(suggestionsFrom([withImage], []).images).toEqual([])
  })

  it('keeps the last launches, newest first, one per combination', () => {
    let recent = addRecentLaunch([], { imageId: 'i', instanceTypeId: 't', region: 'r', at: 1 })
    recent = addRecentLaunch(recent, { imageId: 'i', instanceTypeId: 't', region: 'r', at: 2 })
    expect(recent).toEqual([{ imageId: 'i', instanceTypeId: 't', region: 'r', at: 2 }])
    for (let n = 0; n < 20; n++) recent = addRecentLaunch(recent, { imageId: `i${n}`, instanceTypeId: 't', region: 'r', at: 10 + n })
    expect(recent).toHaveLength(MAX_RECENT_LAUNCHES)
    expect(recent[0]!.imageId).toBe('i19')
  })
})
