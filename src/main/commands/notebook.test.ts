import { describe, expect, it } from 'vitest'
import type { Instance } from '../../shared/api'
import type { SandboxInfo } from '../account/sandbox'
import type { NotebookWindowRequest, Platform } from '../core-types'
import { AppError } from '../app-error'
import { notebookCommands, type NotebookServices } from './notebook'
import { instanceWith } from '../notebook/testing/instance'

const TOKEN = 'header.payload.signature'

function services(options: { token?: string; instance?: Instance; sandbox?: SandboxInfo } = {}): {
  services: NotebookServices
  opened: NotebookWindowRequest[]
} {
  const opened: NotebookWindowRequest[] = []
  const platform = {
    openNotebook: async (request: NotebookWindowRequest) => {
      opened.push(request)
    }
  } as unknown as Platform
  const value: NotebookServices = {
    platform,
    findInstance: (id: string) => (options.instance?.instanceMetadata.instanceId === id ? options.instance : undefined),
    currentProfile: () => ({ id: 'sandbox', name: 'Sandbox', baseUrl: 'http://127.0.0.1:1/api', builtIn: 'sandbox' as const }),
    accessToken: () => ('token' in options ? options.token : TOKEN),
    sandbox: () => options.sandbox
  }
  return { services: value, opened }
}

async function open(fixture: ReturnType<typeof services>, instanceId = 'inst-1'): Promise<{ url: string }> {
  return notebookCommands(fixture.services).handlers['notebook.open']({ instanceId }, { clientId: 'c1' })
}

describe('notebook.open', () => {
  it('opens the Running instance’s notebook with the cookie for its origin, and answers the URL only', async () => {
    const fixture = services({ instance: instanceWith() })
    const result = await open(fixture)
    expect(result).toEqual({ url: 'https://notebook.example.com/notebook/inst-1/' })
    expect(JSON.stringify(result)).not.toContain(TOKEN)
    expect(fixture.opened).toEqual([
      {
        profileId: 'sandbox',
        instanceId: 'inst-1',
        instanceName: 'trainer',
        url: 'https://notebook.example.com/notebook/inst-1/',
        cookie: { url: 'https://notebook.example.com', name: 'AccessToken', value: TOKEN, secure: true, httpOnly: true, sameSite: 'strict' }
      }
    ])
  })

  it('pins the Sandbox certificate when the Sandbox runs', async () => {
    const fixture = services({ instance: instanceWith(), sandbox: { notebookCertSha256: 'ab'.repeat(32), sshPrivateKeyPath: '/k' } })
    await open(fixture)
    expect(fixture.opened[0]?.pinnedCertificateSha256).toBe('ab'.repeat(32))
  })

  it.each([
    [
      'a stopped instance',
      { instance: instanceWith({ status: 'Stopped' }) },
      'not-allowed',
      /opens once the instance is Running; it is Stopped now/
    ],
    ['an instance no longer listed', { instance: instanceWith(), id: 'gone' }, 'not-allowed', /no longer in your list/],
    ['no session', { instance: instanceWith(), token: undefined }, 'no-session', /Sign in/],
    ['a token a cookie cannot carry', { instance: instanceWith(), token: 'a; Domain=evil' }, 'no-session', /sign in again/]
  ])('refuses %s with a message, opening nothing', async (_name, options, kind, message) => {
    const { id, ...rest } = options as { id?: string; instance: Instance; token?: string }
    const fixture = services(rest)
    const error = await open(fixture, id ?? 'inst-1').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).kind).toBe(kind)
    expect((error as AppError).message).toMatch(message)
    expect((error as AppError).message).not.toContain('Domain=evil')
    expect(fixture.opened).toEqual([])
  })
})
