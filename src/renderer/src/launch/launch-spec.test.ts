import { describe, expect, it } from 'vitest'
import { readCatalog } from '../../../shared/catalog'
import { EVERY_PART, validCreateRequest } from '../../../shared/testing/create-request'
import { draftFromSpec, regionsOffering, relaunchRuleFrom, specFromDraft } from './launch-spec'

describe('the draft and a launch spec (#26)', () => {
  it('a spec filled into the form and read back is the spec: every field the request carries', () => {
    const request = validCreateRequest({
      name: 'train',
      billing: { chargeMode: 'perWeek', duration: 3 },
      ...EVERY_PART,
      isSpotInstance: true
    })
    const spec = { request, regions: [request.region, 'eu-1'], imageLabel: 'PyTorch' }
    expect(specFromDraft(draftFromSpec(spec), spec.regions)).toEqual(spec)
  })

  it('the draft’s region comes first among the regions a launch accepts', () => {
    const draft = draftFromSpec({ request: validCreateRequest({ region: 'b' }), regions: ['b'] })
    expect(specFromDraft(draft, ['a', 'b', 'c']).regions).toEqual(['b', 'a', 'c'])
  })

  it('lists the regions offering a type once each, with their stock', () => {
    const catalog = readCatalog([
      {
        gpuName: 'H100',
        regionInfos: [
          { regionId: 'r1', regionName: 'one', instanceTypeInfos: [{ instanceTypeId: 't', stockStatus: 'OutOfStock' }] },
          {
            regionId: 'r2',
            regionName: 'two',
            instanceTypeInfos: [{ instanceTypeId: 't', stockStatus: 'InStock' }, { instanceTypeId: 'u' }]
          }
        ]
      }
    ])
    expect(regionsOffering(catalog, 't')).toEqual([
      { regionId: 'r1', regionName: 'one', inStock: false },
      { regionId: 'r2', regionName: 'two', inStock: true }
    ])
  })
})

describe('a relaunch rule from its two boxes (#26)', () => {
  it('is the rule when both boxes hold a value in bounds', () => {
    expect(relaunchRuleFrom(1.25, 6)).toEqual({ ok: true, rule: { maxPricePerHour: 1.25, withinHours: 6 } })
  })

  it.each([
    [null, 6, 'ceiling'],
    [0, 6, 'ceiling'],
    [0.001, 6, 'ceiling'],
    [10_001, 6, 'ceiling'],
    [Number.NaN, 6, 'ceiling'],
    [1, null, 'within'],
    [1, 0.1, 'within'],
    [1, 721, 'within']
  ])('ceiling %s and %s hours: the %s box is wrong', (ceiling, hours, field) => {
    const result = relaunchRuleFrom(ceiling, hours)
    expect(result.ok ? null : result.problem.field).toBe(field)
  })
})
