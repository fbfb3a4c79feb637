import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CreateInstanceRequestSchema, MAX_INIT_SCRIPT_LENGTH, MAX_LIST_LENGTH, MAX_TEXT_LENGTH } from '../../../shared/create-request'
import {
  addNodePort,
  cloudFieldErrors,
  draftFromRequestJson,
  draftToRequest,
  emptyDraft,
  newStorageRow,
  normaliseFieldPath,
  validateDraft,
  withChargeMode,
  withPendingPort,
  type CreateDraft
} from './create-form'
import { filledDraft } from '../testing/create-draft'

const filled = (): CreateDraft => filledDraft()

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

  it('leaves limits the spec does not state to the cloud: long names, long subscriptions, big disks, many ports', () => {
    const generous: CreateDraft = {
      ...filled(),
      name: 'x'.repeat(300),
      chargeMode: 'perDay',
      duration: 5_000,
      extraDataDiskSizeGB: 500_000,
      enableDocker: true,
      dockerStorageSize: 250_000,
      initScript: 'x'.repeat(100_000),
      nodePorts: Array.from({ length: 20 }, (_, i) => 8000 + i)
    }
    expect(validateDraft(generous)).toEqual({})
  })

  it('keeps the app’s own bounds, from the shared request schema', () => {
    expect(validateDraft({ ...filled(), name: 'x'.repeat(MAX_TEXT_LENGTH + 1) })['name']).toBe(`Use at most ${MAX_TEXT_LENGTH} characters.`)
    expect(
      validateDraft({ ...filled(), initScript: 'x'.repeat(MAX_INIT_SCRIPT_LENGTH + 1) })['instanceConfiguration.initScript']
    ).toBeDefined()
    expect(validateDraft({ ...filled(), extraDataDiskSizeGB: -1 })['instanceConfiguration.extraDataDiskSizeDB']).toBeDefined()
    expect(
      validateDraft({ ...filled(), enableDocker: true, dockerStorageSize: -5 })['instanceConfiguration.dockerStorageSize']
    ).toBeDefined()
  })

  it('refuses at the field the sizes no disk can have: not finite, beyond exact numbers, fractional (#24)', () => {
    const disk = (extraDataDiskSizeGB: number) =>
      validateDraft({ ...filled(), extraDataDiskSizeGB })['instanceConfiguration.extraDataDiskSizeDB']
    const docker = (dockerStorageSize: number) =>
      validateDraft({ ...filled(), enableDocker: true, dockerStorageSize })['instanceConfiguration.dockerStorageSize']
    for (const impossible of [1e20, Number.MAX_SAFE_INTEGER + 2, Infinity, Number.NaN]) {
      expect(disk(impossible)).toBe('No disk is that big: enter a size in GB.')
      expect(docker(impossible)).toBe('No disk is that big: enter a size in GB.')
    }
    expect(disk(10.5)).toBe('Enter whole gigabytes: a disk has no part of one.')
    expect(disk(-1)).toBe('Enter a size in GB, 0 (none) or more.')
    expect(docker(-1)).toBe('Enter a size in GB, 0 (the default) or more.')
    expect(disk(Number.MAX_SAFE_INTEGER)).toBeUndefined()
    // Docker off: its size is not sent, so it is not judged.
    expect(validateDraft({ ...filled(), enableDocker: false, dockerStorageSize: 1e20 })).toEqual({})
    expect(validateDraft({ ...withChargeMode(filled(), 'perDay'), duration: 1e20 })['billing.duration']).toMatch(/whole number/)
  })

  it('puts every field a refusal names on its field at once, in the form’s words (#24)', () => {
    expect(
      cloudFieldErrors([
        { field: 'name', said: 'field "name" must be at most 128 characters long' },
        {
          field: 'instanceConfiguration.dockerStorageSize',
          said: 'field "instanceConfiguration.dockerStorageSize" must be between 0 and 100000, not 100000000000000000000'
        },
        { field: 'billing.duration', said: 'field "billing.duration" must be between 1 and 1000, not 5000' },
        { field: 'nodePorts[1]', said: 'field "nodePorts[1]": port 8000 is listed twice' },
        { field: 'nodePorts.3', said: 'field "nodePorts.3": port 22 is SSH' },
        { field: 'instanceTypeId', said: 'field "instanceTypeId": gpu-h100 is out of stock in us-west-1' }
      ])
    ).toEqual({
      name: 'The cloud takes at most 128 characters here; shorten it.',
      'instanceConfiguration.dockerStorageSize': 'The cloud takes 0 to 100000 GB here.',
      'billing.duration': 'The cloud takes 1 to 1000 periods here.',
      nodePorts: 'The cloud refused this: “field "nodePorts[1]": port 8000 is listed twice”.',
      instanceTypeId: 'Out of stock in this region now: choose another type or region.'
    })
  })

  it('never lets through a request main would refuse', () => {
    // Mostly good values, now and then a bad one, so each check meets drafts that fail only it.
    const rarely = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>): fc.Arbitrary<T> =>
      fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: bad, weight: 1 })
    const text = rarely(
      fc.string({ minLength: 1, maxLength: 12 }).filter((t) => t.trim() !== ''),
      fc.constantFrom('', ' ', 'x'.repeat(MAX_TEXT_LENGTH + 1))
    )
    const size = rarely(
      fc.oneof(fc.constant(null), fc.nat({ max: 1e6 })),
      fc.oneof(fc.double({ min: -10, max: -0.1, noNaN: true }), fc.constantFrom(0.5, 1e20, Infinity, Number.NaN, 2 ** 60))
    )
    const draft = fc.record({
      name: text,
      imageId: text,
      instanceTypeId: text,
      region: text,
      chargeMode: fc.constantFrom('perHour', 'tidePerHour', 'perDay', 'perWeek', 'perMonth'),
      duration: rarely(
        fc.integer({ min: 1, max: 10_000 }),
        fc.oneof(fc.constant(null), fc.integer({ min: -2, max: 0 }), fc.double({ min: 1.1, max: 5, noNaN: true }))
      ),
      storages: fc.array(fc.record({ key: fc.nat(), mountPath: text, remoteStorageName: text, remoteStorageId: text, type: text }), {
        maxLength: 2
      }),
      extraDataDiskSizeGB: size,
      enableCommonData: fc.boolean(),
      enableDocker: fc.boolean(),
      dockerStorageSize: size,
      initScript: rarely(fc.string({ maxLength: 20 }), fc.constant('x'.repeat(MAX_INIT_SCRIPT_LENGTH + 1))),
      isSpotInstance: fc.boolean(),
      nodePorts: rarely(
        fc.uniqueArray(fc.integer({ min: 23, max: 65_535 }), { maxLength: 5 }),
        fc.array(fc.integer({ min: -1, max: 70_000 }), { minLength: MAX_LIST_LENGTH + 1, maxLength: MAX_LIST_LENGTH + 2 })
      )
    }) as fc.Arbitrary<CreateDraft>
    fc.assert(
      fc.property(
        draft,
        (d) => Object.keys(validateDraft(d)).length > 0 || CreateInstanceRequestSchema.safeParse(draftToRequest(d)).success
      ),
      { numRuns: 500 }
    )
  })

  it('takes node ports 1–65535 without duplicates', () => {
    expect(addNodePort([], '8080')).toEqual({ ports: [8080] })
    expect(addNodePort([8080], '8080')).toEqual({ error: 'Port 8080 is already in the list.' })
    expect(addNodePort([], '0')).toHaveProperty('error')
    expect(addNodePort([], '65536')).toHaveProperty('error')
    expect(addNodePort([], '80a')).toHaveProperty('error')
    expect(addNodePort([], '65535')).toEqual({ ports: [65535] })
    expect(addNodePort([], '22')).toEqual({ error: 'Port 22 (SSH) is always forwarded; no need to add it.' })
    const full = Array.from({ length: MAX_LIST_LENGTH }, (_, i) => 1000 + i)
    expect(addNodePort(full, '2000')).toEqual({ error: `Forward at most ${MAX_LIST_LENGTH} ports.` })
    expect(addNodePort(full.slice(0, 16), '2000')).toEqual({ ports: [...full.slice(0, 16), 2000] })
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

describe('#15: a port typed but not added', () => {
  it('is added on Create, or stops it with a message; it is never dropped', () => {
    expect(withPendingPort({ ...filled(), nodePorts: [8888], pendingPort: ' 6006 ' })).toEqual({
      draft: { ...filled(), nodePorts: [8888, 6006], pendingPort: '' }
    })
    expect(withPendingPort({ ...filled(), pendingPort: '' })).toEqual({ draft: { ...filled(), pendingPort: '' } })
    expect(withPendingPort({ ...filled(), nodePorts: [8888], pendingPort: '8888' })).toEqual({
      error: '“8888” is still in the port box and was not added: Port 8888 is already in the list.'
    })
    expect(withPendingPort({ ...filled(), pendingPort: '70000' })).toMatchObject({
      error: expect.stringMatching(/“70000” is still in the port box/)
    })
  })
})
