import { describe, expect, it } from 'vitest'
import { readCatalog } from '../../../shared/catalog'
import type { CreateDraft } from './create-form'
import { filledDraft } from '../testing/create-draft'
import { SPOT_RISK, launchReview } from './launch-review'

const catalog = readCatalog([
  {
    gpuName: 'H100-SXM-80GB',
    regionInfos: [
      {
        regionId: 'r-us',
        regionName: 'us-west-1',
        instanceTypeInfos: [
          {
            instanceTypeId: 'h100',
            gpuNum: 8,
            stockStatus: 'InStock',
            price: [
              { chargeMode: 'perHour', price: 19.92 },
              { chargeMode: 'perWeek', price: 2677.25 },
              { chargeMode: 'perMonth', price: null }
            ]
          }
        ]
      }
    ]
  },
  {
    gpuName: 'RTX-4090-SPOT',
    isSpotInstance: true,
    regionInfos: [
      {
        regionId: 'r-us',
        regionName: 'us-west-1',
        instanceTypeInfos: [{ instanceTypeId: 'spot', gpuNum: 1, price: [{ chargeMode: 'perHour', price: 0.25 }] }]
      }
    ]
  }
])
const images = [{ imageId: 'img-1', label: 'My PyTorch', source: 'mine' as const }]

/** A draft of the catalog's H100 in its region, with the image above. */
const draft = (overrides: Partial<CreateDraft>): CreateDraft =>
  filledDraft({ imageId: 'img-1', instanceTypeId: 'h100', region: 'r-us', ...overrides })

describe('the review before launch', () => {
  it('names the type by GPU, the region by name and the image by its label, then the whole rest of the request (#24)', () => {
    const review = launchReview(draft({ nodePorts: [8888] }), catalog, images)
    expect(review.lines).toEqual([
      { label: 'Name', value: 'train' },
      { label: 'Type', value: '8 × H100-SXM-80GB' },
      { label: 'Region', value: 'us-west-1' },
      { label: 'Image', value: 'My PyTorch (img-1)' },
      { label: 'Billing', value: 'Per hour' },
      { label: 'Data disk', value: "None: the type's own disk only" },
      { label: 'Docker', value: 'Off' },
      { label: 'Common data', value: 'Off' },
      { label: 'Remote storage', value: 'None' },
      { label: 'Published ports', value: '8888, and SSH (22)' },
      { label: 'Init script', value: 'None' }
    ])
    const everything = launchReview(
      draft({
        extraDataDiskSizeGB: 200,
        enableDocker: true,
        dockerStorageSize: 50,
        enableCommonData: true,
        initScript: '#!/bin/sh\napt-get update\npip install vllm\necho one\necho two\n'
      }),
      catalog,
      images
    )
    expect(Object.fromEntries(everything.lines.map((line) => [line.label, line.value]))).toMatchObject({
      'Data disk': "200 GB, besides the type's own disk",
      Docker: 'On, with 50 GB of storage',
      'Common data': "On: the provider's shared datasets are mounted",
      'Init script': '#!/bin/sh\napt-get update\npip install vllm\n… and 2 more lines'
    })
  })

  it('hourly: the price per hour; a plan: price per period × periods; unknown: said, never free', () => {
    expect(launchReview(draft({}), catalog, images).cost).toBe('$19.92 per hour, billed while it runs, until you stop or delete it.')
    const weekly = launchReview(draft({ chargeMode: 'perWeek', duration: 3 }), catalog, images)
    expect(weekly.cost).toBe('$2,677.25 per week × 3 weeks = $8,031.75.')
    expect(weekly.total).toBeCloseTo(8031.75)
    const monthly = launchReview(draft({ chargeMode: 'perMonth', duration: 1 }), catalog, images)
    expect(monthly.cost).toMatch(/^Price unknown/)
    expect(monthly.total).toBeUndefined()
    expect(launchReview(draft({}), null, []).cost).toMatch(/^Price unknown/)
  })

  it('spot is the type’s: its risk and the spot price for a spot type, never for an on-demand one (#24)', () => {
    expect(launchReview(draft({}), catalog, images).spotRisk).toBeUndefined()
    const spot = launchReview(draft({ instanceTypeId: 'spot' }), catalog, images)
    expect(spot.spotRisk).toBe(SPOT_RISK)
    expect(spot.cost).toBe('$0.25 per hour, billed while it runs, until you stop or delete it.')
    // An old draft (or a pasted request) asking spot of an on-demand type: the type decides.
    const asked = launchReview(draft({ isSpotInstance: true }), catalog, images)
    expect(asked.spotRisk).toBeUndefined()
    expect(asked.lines.some((line) => line.label === 'Spot')).toBe(false)
  })
})
