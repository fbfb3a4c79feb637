import { describe, expect, it } from 'vitest'
import { CreateInstanceRequestSchema } from '../../shared/create-request'
import { CreateVolumeRequestSchema } from '../../shared/volume-request'
import { fieldFromMessage, fieldProblemsFromMessage, lockedUntilFromMessage, quotable, saysLocked, schemaPaths } from './messages'

describe('fieldProblemsFromMessage', () => {
  it('splits an answer naming several fields into one problem each, in its order', () => {
    expect(
      fieldProblemsFromMessage(
        'field "name" must be at most 128 characters long; field "billing.duration" must be between 1 and 1000, and field "nodePorts.2": port 22 is SSH.'
      )
    ).toEqual([
      { field: 'name', said: 'field "name" must be at most 128 characters long' },
      { field: 'billing.duration', said: 'field "billing.duration" must be between 1 and 1000' },
      { field: 'nodePorts.2', said: 'field "nodePorts.2": port 22 is SSH' }
    ])
  })

  it('finds nothing without the field phrasing, and bounds what a hostile answer can make it keep', () => {
    expect(fieldProblemsFromMessage('Volume already exists')).toEqual([])
    const many = Array.from({ length: 500 }, (_, i) => `field "f${i}" is bad`).join('; ')
    expect(fieldProblemsFromMessage(many)).toHaveLength(20)
    const [long] = fieldProblemsFromMessage(`field "name" ${'x'.repeat(5000)}`)
    expect(long!.said.length).toBeLessThanOrEqual(300)
  })
})

describe('fieldFromMessage', () => {
  it.each([
    ['field "instanceConfiguration.enableDocker" is not set', 'instanceConfiguration.enableDocker'],
    ['field "name" is not set', 'name'],
    ['field "billing.duration" must be 1 when billing perHour, not 3', 'billing.duration'],
    ['field "nodePorts[2]": port 22 is SSH and is always forwarded; leave it out', 'nodePorts[2]'],
    ['field "remoteStorages[0].mountPath" must be a string, not a number', 'remoteStorages[0].mountPath'],
    ['field "imageId": no image with id "abc" exists; GET /__emulator/catalog lists the ids', 'imageId'],
    ["Field: 'billing.chargeMode' is invalid", 'billing.chargeMode'],
    ['field instanceConfiguration.initScript is required', 'instanceConfiguration.initScript'],
    ['"sizeGB" must be positive', 'sizeGB'],
    ['"remoteStorages[1].remoteStorageId" is unknown', 'remoteStorages[1].remoteStorageId'],
    ['"instanceConfiguration.dockerStorageSize" is too small', 'instanceConfiguration.dockerStorageSize'],
    ['"pager.pageSize" must be at most 100', 'pager.pageSize'],
    ['invalid value for “region”', 'region']
  ])('%s → %s', (message, field) => {
    expect(fieldFromMessage(message)).toBe(field)
  })

  it.each([
    'Volume already exists',
    'ent: instance not found',
    'Invalid field value',
    'instance "my.notebook" cannot be stopped now',
    'volume "remoteStorages.data" is busy',
    'internal error',
    ''
  ])('names no field in %j', (message) => {
    expect(fieldFromMessage(message)).toBeUndefined()
  })
})

describe('lockedUntilFromMessage', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0)

  it('reads an ISO instant with a zone', () => {
    expect(lockedUntilFromMessage('Too many failed logins: the account is locked until 2026-01-01T12:15:00.000Z', now)).toBe(
      Date.UTC(2026, 0, 1, 12, 15, 0)
    )
    expect(lockedUntilFromMessage('locked until 2026-01-01 13:15:00+01:00.', now)).toBe(Date.UTC(2026, 0, 1, 12, 15))
  })

  it("reads the emulator's lockout message (instant in UTC, not the relative duration)", () => {
    const message = 'Too many failed logins: this account is locked for 15 minute(s), until 2026-01-01 12:30:00 UTC. Try again after that.'
    expect(lockedUntilFromMessage(message, now)).toBe(Date.UTC(2026, 0, 1, 12, 30))
  })

  it('reads a relative delay from now when the message is about a lockout', () => {
    expect(lockedUntilFromMessage('Account locked. Try again in 15 minutes.', now)).toBe(now + 15 * 60_000)
    expect(lockedUntilFromMessage('Too many attempts, retry after 30 seconds', now)).toBe(now + 30_000)
    expect(lockedUntilFromMessage('locked for 2 hours', now)).toBe(now + 2 * 3_600_000)
  })

  it('says nothing when the message does not say until when', () => {
    expect(lockedUntilFromMessage('Account locked', now)).toBeUndefined()
    expect(lockedUntilFromMessage('Wrong password, 4 retries left; try again in 5 minutes', now)).toBeUndefined()
    expect(lockedUntilFromMessage('locked until tomorrow', now)).toBeUndefined()
    expect(lockedUntilFromMessage('locked until 2026-01-01 12:30:00 (server time)', now)).toBeUndefined()
  })
})

describe('saysLocked', () => {
  it('tells a lockout from a plain wrong password', () => {
    expect(saysLocked('The account is locked until 2026-01-01T00:00:00Z')).toBe(true)
    expect(saysLocked('Too many failed logins')).toBe(true)
    expect(saysLocked('Incorrect user name or password, 3 retries left')).toBe(false)
    expect(saysLocked('Your clock is off')).toBe(false)
  })
})

describe('quotable', () => {
  it('keeps one bounded line without control characters', () => {
    expect(quotable('a\nb\u0000c\t d')).toBe('a b c d')
    const long = quotable('x'.repeat(1000))
    expect(long.length).toBe(300)
    expect(long.endsWith('…')).toBe(true)
  })
})

describe('the request paths a quoted word may name', () => {
  it('are read from the request schemas: nested, optional and array element fields included', () => {
    const paths = schemaPaths(CreateInstanceRequestSchema)
    expect(paths).toEqual(expect.arrayContaining(['billing.duration', 'remoteStorages.mountPath', 'isSpotInstance']))
    expect(paths).toContain('instanceConfiguration.extraDataDiskSizeDB')
    // Each top-level field first, its own fields after it.
    expect(paths.filter((path) => !path.includes('.'))).toEqual(Object.keys(CreateInstanceRequestSchema.shape))
    expect(schemaPaths(CreateVolumeRequestSchema)).toEqual(['name', 'sizeGB', 'region', 'volumeType'])
  })
})
