/**
 * Token containment: a session driven through every command of the contract (and the expiry
 * and re-login path) never puts the access token in a result or an event.
 */
import { describe, expect, it } from 'vitest'
import { COMMAND_NAMES, NOTICE_NAMES, type CommandName, type NoticeName } from '../shared/contract'
import { createMemoryKeychain } from './account/keychain'
import { createCoreRig, createRequest, type CoreRig } from './testing/core-harness'
import { closeAfterEach } from '../shared/testing/close-after-each'

const rigs = closeAfterEach<CoreRig>()

describe('token containment', () => {
  it('no result or event carries the token', async () => {
    const keychain = createMemoryKeychain()
    const rig = rigs.track(await createCoreRig({ keychain }))
    const results: unknown[] = []
    const call = async (command: CommandName, input?: unknown): Promise<unknown> => {
      const result = await rig!.call(command, input)
      results.push(result)
      return result
    }
    await rig.emulator.control.seedInstances('demo', 2)
    await call('session.login', { profileId: 'sandbox', username: 'demo', password: 'demo', rememberMe: true })
    const token = keychain.entries.get('sandbox/demo')
    expect(token).toMatch(/^ey/)
    await call('instances.refresh')
    const first = rig.emulator.control.instances('demo')[0]!.instanceMetadata.instanceId
    const inputs: Partial<Record<CommandName, unknown>> = {
      'profiles.save': { name: 'Lab', baseUrl: 'https://lab.example.com/api' },
      'profiles.remove': { id: 'nope' },
      'profiles.select': { id: 'sandbox' },
      'instances.page': { currentPage: 1, pageSize: 10 },
      'instances.create': { request: createRequest(rig.emulator, 'contained') },
      'instances.stop': { instanceId: first },
      'instances.terminate': { instanceId: first },
      'volumes.list': { currentPage: 1, pageSize: 10 },
      'volumes.create': { name: 'data', sizeGB: 10, region: rig.emulator.control.catalog().regions[0]!.regionId, volumeType: 'filesystem' },
      'settings.update': { theme: 'dark' },
      'tray.activate': { itemId: 'refresh' },
      'notebook.open': { instanceId: first },
      'external.open': { url: 'https://example.com/' },
      'ssh.open': { instanceId: first, cols: 80, rows: 24 },
      'ssh.close': { terminalId: 't' },
      'ssh.reconnect': { terminalId: 't' },
      'ssh.answer': { promptId: 'p', answer: { kind: 'cancel' } },
      'ssh.command': { instanceId: first },
      'ssh.configPreview': { instanceId: first },
      'ssh.configWrite': { instanceId: first, block: '' },
      'ssh.forgetHostKey': { host: '127.0.0.1', port: 22 }
    }
    const skip = new Set<CommandName>(['session.login', 'session.logout', 'ssh.configWrite'])
    for (const command of COMMAND_NAMES) if (!skip.has(command)) await call(command, inputs[command])
    // Notices answer nothing, but what they set off must not carry the token either.
    const notices: Record<NoticeName, unknown> = {
      'ssh.input': { terminalId: 't', data: 'ls\n' },
      'ssh.resize': { terminalId: 't', cols: 100, rows: 30 },
      'ssh.ack': { terminalId: 't', bytes: 10 },
      'ssh.eof': { terminalId: 't' },
      'files.chunk': { transferId: 't', item: 0, offset: 0, data: new Uint8Array([1]) },
      'files.saved': { transferId: 't', bytes: 0 }
    }
    for (const notice of NOTICE_NAMES) rig.core.notice(notice, notices[notice], { clientId: 'test' })

    // Expiry mid-command and re-login.
    rig.emulator.control.expireTokens('demo')
    const r = rig
    r.core.subscribe((event) => {
      if (event === 'session.expired')
        void call('session.login', { profileId: 'sandbox', username: 'demo', password: 'demo', rememberMe: false })
    })
    await call('volumes.list', { currentPage: 1, pageSize: 10 })
    await call('session.logout')

    const everything = JSON.stringify({ results, events: rig.events, recorded: rig.platform.trays })
    expect(everything.length).toBeGreaterThan(1000)
    expect(everything.includes(token!)).toBe(false)
    // No part of it either: the signature is the secret part of a JWT.
    expect(everything.includes(token!.split('.')[2]!)).toBe(false)
    expect(rig.of('session.expired').length).toBeGreaterThan(0)
  })
})

describe('token containment in the log', () => {
  it('the core hands the token to the log secrets at login and at resume', async () => {
    const added: string[] = []
    const lines: string[] = []
    const keychain = createMemoryKeychain()
    const log = {
      info: (m: string) => void lines.push(m),
      warn: (m: string) => void lines.push(m),
      error: (m: string) => void lines.push(m),
      secrets: { add: (s: string | undefined | null) => void (s && added.push(s)), delete: () => undefined }
    }
    const rig = rigs.track(await createCoreRig({ keychain, core: { log } }))
    await rig.login(true)
    const token = keychain.entries.get('sandbox/demo')!
    expect(added).toEqual([token])
    await rig.restart()
    expect(added).toEqual([token, token])
    expect(lines.some((l) => l.includes('session signed-in'))).toBe(true)
    expect(lines.join('\n').includes(token)).toBe(false)
  })
})

describe('#15: API key containment', () => {
  it('no result, event or log line carries the key; the log is told to scrub it', async () => {
    const key = 'ct_containment-key-0123456789'
    const added: string[] = []
    const lines: string[] = []
    const log = {
      info: (m: string, data?: unknown) => void lines.push(`${m} ${JSON.stringify(data ?? '')}`),
      warn: (m: string, data?: unknown) => void lines.push(`${m} ${JSON.stringify(data ?? '')}`),
      error: (m: string, data?: unknown) => void lines.push(`${m} ${JSON.stringify(data ?? '')}`),
      secrets: { add: (s: string | undefined | null) => void (s && added.push(s)), delete: () => undefined }
    }
    const rig = rigs.track(await createCoreRig({ core: { log }, emulator: { apiKeys: [{ username: 'demo', key }] } }))
    const results: unknown[] = []
    const call = async (command: CommandName, input?: unknown): Promise<void> => void results.push(await rig!.call(command, input))
    await call('session.loginWithKey', { profileId: 'sandbox', username: 'demo', apiKey: 'ct_wrong-key-000000', rememberMe: true })
    await call('session.loginWithKey', { profileId: 'sandbox', username: 'demo', apiKey: key, rememberMe: true })
    await rig.emulator.control.seedInstances('demo', 1)
    for (const command of ['instances.refresh', 'catalog.refresh', 'balance.refresh', 'session.get'] as const) await call(command)
    await call('session.notebookSignIn', { password: 'demo' })
    rig.emulator.control.revokeApiKeys('demo')
    await call('instances.refresh')
    await call('session.logout')
    expect(added).toContain(key)
    const everything = JSON.stringify({ results, events: rig.events, trays: rig.platform.trays, lines })
    expect(everything.includes(key)).toBe(false)
    expect(rig.of('session').map((s) => s.status)).toContain('expired')
  })
})
