import { describe, expect, it } from 'vitest'
import {
  addNodePort,
  draftFromRequestJson,
  draftToRequest,
  emptyDraft,
  newStorageRow,
  normaliseFieldPath,
  validateDraft,
  withChargeMode,
  type CreateDraft
} from './create-form'

function filled(): CreateDraft {
  return {
    ...emptyDraft(),
    name: 'train',
    imageId: 'img-pytorch',
    instanceTypeId: 'gpu-a100-1',
    region: 'sg-1'
  }
}

describe('create form', () => {
  it('asks for the required fields, each on its own field', () => {
    expect(Object.keys(validateDraft(emptyDraft())).sort()).toEqual(['imageId', 'instanceTypeId', 'name', 'region'])
    expect(validateDraft(filled())).toEqual({})
  })

  it('locks the duration to 1 for hourly modes and checks it for subscriptions', () => {
    const weekly = withChargeMode(filled(), 'perWeek')
    weekly.duration = 3
    expect(validateDraft(weekly)).toEqual({})
    expect(draftToRequest(weekly).billing).toEqual({ chargeMode: 'perWeek', duration: 3 })
    const hourly = withChargeMode(weekly, 'tidePerHour')
    expect(hourly.duration).toBe(1)
    expect(validateDraft({ ...weekly, duration: 0 })['billing.duration']).toMatch(/1 or more/)
    expect(validateDraft({ ...weekly, duration: 1.5 })['billing.duration']).toBeDefined()
  })

  it('checks storage rows as the emulator does: a mount path is required', () => {
    const draft = filled()
    draft.storages = [
      { ...newStorageRow(), mountPath: '/data', remoteStorageName: 'v', remoteStorageId: 'id1' },
      { ...newStorageRow(), mountPath: ' ', remoteStorageName: '', remoteStorageId: 'id2' }
    ]
    const errors = validateDraft(draft)
    expect(errors).toEqual({ 'remoteStorages.1.mountPath': 'Enter where to mount it, e.g. /data.' })
  })

  it('applies the emulator limits on name, duration and disks', () => {
    expect(validateDraft({ ...filled(), name: 'x'.repeat(129) })['name']).toBeDefined()
    expect(validateDraft({ ...filled(), name: 'x'.repeat(128) })['name']).toBeUndefined()
    expect(validateDraft({ ...filled(), chargeMode: 'perDay', duration: 1001 })['billing.duration']).toBeDefined()
    expect(validateDraft({ ...filled(), extraDataDiskSizeGB: -1 })['instanceConfiguration.extraDataDiskSizeDB']).toBeDefined()
    expect(validateDraft({ ...filled(), enableDocker: true, dockerStorageSize: 100_001 })['instanceConfiguration.dockerStorageSize']).toBeDefined()
  })

  it('takes node ports 1–65535 without duplicates', () => {
    expect(addNodePort([], '8080')).toEqual({ ports: [8080] })
    expect(addNodePort([8080], '8080')).toEqual({ error: 'Port 8080 is already in the list.' })
    expect(addNodePort([], '0')).toHaveProperty('error')
    expect(addNodePort([], '65536')).toHaveProperty('error')
    expect(addNodePort([], '80a')).toHaveProperty('error')
    expect(addNodePort([], '65535')).toEqual({ ports: [65535] })
    expect(addNodePort([], '22')).toEqual({ error: 'Port 22 (SSH) is always forwarded; no need to add it.' })
    const sixteen = Array.from({ length: 16 }, (_, i) => 1000 + i)
    expect(addNodePort(sixteen, '2000')).toEqual({ error: 'Forward at most 16 ports.' })
  })

  it('builds the request the spec asks for', () => {
    const draft = filled()
    draft.enableDocker = true
    draft.dockerStorageSize = 30
    draft.extraDataDiskSizeGB = 100
    draft.initScript = 'echo hi\n'
    draft.nodePorts = [8080, 8888]
    draft.storages = [{ ...newStorageRow(), mountPath: ' /data ', remoteStorageName: 'vol', remoteStorageId: 'v-1', type: 'filesystem' }]
    expect(draftToRequest(draft)).toEqual({
      name: 'train',
      imageId: 'img-pytorch',
      instanceTypeId: 'gpu-a100-1',
      region: 'sg-1',
      billing: { chargeMode: 'perHour', duration: 1 },
      remoteStorages: [{ mountPath: '/data', remoteStorageName: 'vol', remoteStorageId: 'v-1', type: 'filesystem' }],
      instanceConfiguration: {
        extraDataDiskSizeDB: 100,
        enableCommonData: false,
        enableDocker: true,
        dockerStorageSize: 30,
        initScript: 'echo hi\n'
      },
      isSpotInstance: false,
      nodePorts: [8080, 8888]
    })
  })

  it('fills the form from a pasted create body and reports what it ignored', () => {
    const body = {
      name: 'pasted',
      imageId: 'img',
      instanceTypeId: 't',
      region: 'r',
      billing: { chargeMode: 'perMonth', duration: 2 },
      remoteStorages: [{ mountPath: '/m', remoteStorageName: 'n', remoteStorageId: 'i', type: 'highspeedstorage' }],
      instanceConfiguration: { extraDataDiskSizeDB: 10, enableCommonData: true, enableDocker: false, initScript: 'ls' },
      isSpotInstance: true,
      nodePorts: [8080, '9090', 70000],
      projectId: 'p'
    }
    const result = draftFromRequestJson(JSON.stringify(body), emptyDraft())
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(draftToRequest(result.draft)).toMatchObject({
      name: 'pasted',
      billing: { chargeMode: 'perMonth', duration: 2 },
      remoteStorages: [{ mountPath: '/m', remoteStorageName: 'n', remoteStorageId: 'i', type: 'highspeedstorage' }],
      instanceConfiguration: { extraDataDiskSizeDB: 10, enableCommonData: true, initScript: 'ls' },
      isSpotInstance: true,
      nodePorts: [8080, 9090]
    })
    expect(result.ignored).toEqual(['projectId', 'nodePorts: 70000'])
  })

  it('explains a paste that is not a create body', () => {
    expect(draftFromRequestJson('nope', emptyDraft())).toMatchObject({ ok: false, message: expect.stringMatching(/not JSON/) })
    expect(draftFromRequestJson('[1]', emptyDraft())).toMatchObject({ ok: false })
    expect(draftFromRequestJson('{"foo":1}', emptyDraft())).toMatchObject({ ok: false })
  })

  it('normalises server field paths', () => {
    expect(normaliseFieldPath('remoteStorages[1].mountPath')).toBe('remoteStorages.1.mountPath')
    expect(normaliseFieldPath('instanceConfiguration.enableDocker')).toBe('instanceConfiguration.enableDocker')
  })
})
