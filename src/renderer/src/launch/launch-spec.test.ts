import { describe, expect, it } from 'vitest'
import { readCatalog } from '../../../shared/catalog'
import { validCreateRequest } from '../../../shared/testing/create-request'
import { draftFromSpec, regionsOffering, specFromDraft } from './launch-spec'

describe('the draft and a launch spec (#26)', () => {
  it('a spec filled into the form and read back is the spec: every field the request carries', () => {
    const request = validCreateRequest({
      name: 'train',
      billing: { chargeMode: 'perWeek', duration: 3 },
      remoteStorages: [{ mountPath: '/data', remoteStorageName: 'd', remoteStorageId: 'v-1', type: 'filesystem' }],
      instanceConfiguration: {
        extraDataDiskSizeDB: 40,
        enableCommonData: true,
        enableDocker: true,
        dockerStorageSize: 15,
        initScript: 'echo hi\n'
      },
      isSpotInstance: true,
      nodePorts: [8888, 6006]
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
