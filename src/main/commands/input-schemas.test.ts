import { describe, expect, it } from 'vitest'
import type { CommandName } from '../../shared/contract'
import { COMMAND_NAMES, NOTICE_NAMES } from '../../shared/contract'
import { validCreateRequest } from '../../shared/testing/create-request'
import { INPUT_SCHEMAS, NOTICE_SCHEMAS, describeInputError } from './input-schemas'

const request = validCreateRequest({ nodePorts: [8888] })

describe('input schemas', () => {
  it('there is one for every command and every notice', () => {
    for (const name of COMMAND_NAMES) expect(INPUT_SCHEMAS[name], name).toBeDefined()
    for (const name of NOTICE_NAMES) expect(NOTICE_SCHEMAS[name], name).toBeDefined()
  })

  it.each([
    ['an ack', 'ssh.ack', { terminalId: 't', bytes: 4096 }, true],
    ['a negative ack', 'ssh.ack', { terminalId: 't', bytes: -1 }, false],
    ['an ack with its parse time', 'ssh.ack', { terminalId: 't', bytes: 4096, parseMs: 0.25 }, true],
    ['a parse time that is not a time', 'ssh.ack', { terminalId: 't', bytes: 4096, parseMs: -1 }, false],
    ['keystrokes', 'ssh.input', { terminalId: 't', data: 'ls\r' }, true],
    ['bytes instead of text', 'ssh.input', { terminalId: 't', data: [1, 2] }, false]
  ] as const)('notice: %s', (_name, notice, input, valid) => {
    expect(NOTICE_SCHEMAS[notice].safeParse(input).success).toBe(valid)
  })

  it.each<[string, CommandName, unknown, boolean]>([
    ['no input for a void command', 'session.get', undefined, true],
    ['null for a void command', 'session.get', null, true],
    ['a value for a void command', 'session.get', { x: 1 }, false],
    ['a valid create', 'instances.create', { request }, true],
    ['an unknown field (strict)', 'instances.create', { request: { ...request, sneaky: true } }, false],
    ['a bad charge mode', 'instances.create', { request: { ...request, billing: { chargeMode: 'forever', duration: 1 } } }, false],
    ['a port out of range', 'instances.create', { request: { ...request, nodePorts: [70_000] } }, false],
    [
      'hourly billing for 3 periods',
      'instances.create',
      { request: { ...request, billing: { chargeMode: 'perHour', duration: 3 } } },
      false
    ],
    [
      'a weekly subscription of 3000 weeks',
      'instances.create',
      { request: { ...request, billing: { chargeMode: 'perWeek', duration: 3000 } } },
      true
    ],
    [
      'a 300-character name and 20 ports',
      'instances.create',
      { request: { ...request, name: 'n'.repeat(300), nodePorts: Array.from({ length: 20 }, (_, i) => 9000 + i) } },
      true
    ],
    [
      'a mount with only its path',
      'instances.create',
      { request: { ...request, remoteStorages: [{ mountPath: '/d', remoteStorageName: '', remoteStorageId: '', type: '' }] } },
      true
    ],
    [
      'a mount without a path',
      'instances.create',
      { request: { ...request, remoteStorages: [{ mountPath: '', remoteStorageName: 'v', remoteStorageId: 'i', type: 'filesystem' }] } },
      false
    ],
    ['an empty password', 'session.login', { profileId: 'sandbox', username: 'demo', password: '', rememberMe: false }, false],
    ['a login', 'session.login', { profileId: 'sandbox', username: 'demo', password: 'demo', rememberMe: true }, true],
    ['a page of 0', 'instances.page', { currentPage: 0, pageSize: 10 }, false],
    ['a huge page', 'volumes.list', { currentPage: 1, pageSize: 100_000 }, false],
    ['a settings patch', 'settings.update', { notifications: { ready: false } }, true],
    ['an unknown setting', 'settings.update', { telemetry: true }, false],
    ['a prompt answer', 'ssh.answer', { promptId: 'p', answer: { kind: 'host-key', decision: 'accept-once' } }, true],
    ['a made-up answer', 'ssh.answer', { promptId: 'p', answer: { kind: 'yolo' } }, false]
  ])('%s', (_name, command, input, valid) => {
    expect(INPUT_SCHEMAS[command].safeParse(input).success).toBe(valid)
  })

  it('names the field at fault', () => {
    const result = INPUT_SCHEMAS['session.login'].safeParse({ profileId: 'sandbox', username: ' ', password: 'x', rememberMe: false })
    expect(result.success).toBe(false)
    if (!result.success) expect(describeInputError(result.error)).toEqual({ field: 'username', message: 'username: Enter your user name.' })
  })

  it("#15: a volume's problems are said in a person's words, with the limits the app has", () => {
    const said = (input: unknown): { message: string; field?: string } => {
      const parsed = INPUT_SCHEMAS['volumes.create'].safeParse(input)
      if (parsed.success) throw new Error('expected a refusal')
      return describeInputError(parsed.error)
    }
    const volume = { name: 'data', sizeGB: 100, region: 'r', volumeType: 'filesystem' }
    const huge = said({ ...volume, sizeGB: 9007199254740991 })
    expect(huge).toEqual({ field: 'sizeGB', message: 'sizeGB: Cloud Tray creates volumes of up to 1,000,000 GB (1 PB).' })
    expect(said({ ...volume, sizeGB: 2.5 }).message).toMatch(/whole number of GB/)
    expect(said({ ...volume, sizeGB: null }).message).toMatch(/whole number of GB/)
    expect(said({ ...volume, sizeGB: 0 }).message).toMatch(/at least 1 GB/)
    expect(said({ ...volume, name: ' ' }).message).toMatch(/Give the volume a name/)
    for (const input of [
      { ...volume, sizeGB: 9007199254740991 },
      { ...volume, sizeGB: 1.5 },
      { ...volume, region: '' }
    ]) {
      expect(said(input).message).not.toMatch(/expected|Too big|Invalid/)
    }
  })

  it('#15: an API key is one line; the key sign-in and the notebook password are checked', () => {
    const key = (apiKey: string) =>
      INPUT_SCHEMAS['session.loginWithKey'].safeParse({ profileId: 'p', username: 'u', apiKey, rememberMe: true })
    expect(key('  ct_abc-123\n').success).toBe(true)
    expect(key('two words').success).toBe(false)
    expect(key('').success).toBe(false)
    expect(INPUT_SCHEMAS['session.notebookSignIn'].safeParse({ password: '' }).success).toBe(false)
  })
})
