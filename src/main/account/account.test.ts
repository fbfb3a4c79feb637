/**
 * The account on a fake cloud: what the rest of main hears, and when. The order matters: the
 * watcher must stop before the session is cleared, and start only once it is signed in.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import type { EventName, SessionState } from '../../shared/contract'
import { AppError } from '../app-error'
import type { CloudClient } from '../cloud/types'
import { Account } from './account'
import { createMemoryKeychain } from './keychain'

let dataDir: string | undefined
afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
  dataDir = undefined
})

async function rig() {
  dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-account-'))
  const heard: string[] = []
  const refreshed: string[] = []
  let logins = 0
  const client = {
    login: async () => ({ accessToken: `token-${++logins}`, accessExpire: 3600 }),
    close: async () => {}
  } as unknown as CloudClient
  const account = new Account({
    dataDir,
    clock: new ManualClock(Date.UTC(2026, 0, 1)),
    keychain: createMemoryKeychain(),
    // The session's changes are its `session` event.
    emit: (event: EventName, payload: unknown) =>
      void heard.push(event === 'session' ? `changed ${(payload as SessionState).status}` : `event ${event} ${JSON.stringify(payload)}`),
    warn: (id) => void heard.push(`warning ${id}`),
    notebooks: { refreshNotebookCookies: async (profileId, token) => void refreshed.push(`${profileId} ${token}`) },
    baseUrlOverride: 'http://127.0.0.1:1/api',
    cloudClientFactory: () => client
  })
  account.listen({
    started: (continued) => heard.push(`started continued=${continued} while ${account.state().status}`),
    ending: () => heard.push(`ending while ${account.state().status}`),
    expired: () => heard.push(`expired while ${account.state().status}`)
  })
  await account.start()
  heard.length = 0
  const login = () => account.login({ profileId: 'sandbox', username: 'demo', password: 'demo', rememberMe: false })
  return { account, heard, refreshed, login }
}

describe('Account', () => {
  it('starts the rest of main once signed in, and stops it before signing out', async () => {
    const { account, heard, login } = await rig()
    await login()
    expect(heard).toEqual(['changed signed-in', 'started continued=false while signed-in'])
    heard.length = 0
    await account.logout()
    expect(heard).toEqual(['ending while signed-in', 'changed signed-out'])
  })

  it('on a refused token: stops the watcher, expires, names the waiting command; the same user continues', async () => {
    const { account, heard, refreshed, login } = await rig()
    await login()
    heard.length = 0
    await account.expire('instances.create')
    expect(heard).toEqual(['expired while signed-in', 'changed expired', 'event session.expired {"pending":"instances.create"}'])
    heard.length = 0
    await login()
    expect(heard).toEqual(['changed signed-in', 'started continued=true while signed-in'])
    // Open notebook windows get the new login's cookie.
    expect(refreshed).toEqual(['sandbox token-2'])
  })

  it('says nothing when there was no session to expire and no command waits', async () => {
    const { account, heard } = await rig()
    await account.expire(null)
    expect(heard).toEqual([])
  })

  it('gives the cloud only to a session', async () => {
    const { account, login } = await rig()
    expect(() => account.cloud()).toThrow(AppError)
    await login()
    expect(account.cloud()).toBeDefined()
    expect(account.accessToken()).toBe('token-1')
  })
})
