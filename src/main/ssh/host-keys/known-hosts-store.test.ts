import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { KnownHostsStore } from './known-hosts-store'

const ED25519 = 'AAAAC3NzaC1lZDI1NTE5AAAAIP5TgZ71jDfC5JuzrEoscm0NRmgoHz7T/e4ls3C5szf4'
const OTHER = 'AAAAC3NzaC1lZDI1NTE5AAAAIJdx0Qwr6zNe8PFAFcZbRSbmhW4tYXCWchqs4wcPnlIt'
const key = (keyBase64: string) => ({ keyType: 'ssh-ed25519', keyBase64 })

let folder: string
let store: KnownHostsStore
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'cloudtray-known-hosts-'))
  store = new KnownHostsStore(join(folder, 'known_hosts'), undefined)
})
afterEach(() => rm(folder, { recursive: true, force: true }))

describe('KnownHostsStore', () => {
  it('keeps every key remembered at once (each rewrite waits for the one before)', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, index) => store.remember('203.0.113.9', 30000 + index, key(ED25519), `i-${index}`)))
    const lines = (await readFile(store.appFile, 'utf8')).trim().split('\n')
    expect(lines).toHaveLength(8)
    for (let index = 0; index < 8; index++)
      expect(await store.check('203.0.113.9', 30000 + index, key(ED25519), `i-${index}`)).toEqual({ status: 'known' })
  })

  it('judges a key at an address by the instance the cloud says answers there', async () => {
    await store.remember('203.0.113.9', 30022, key(ED25519), 'i-gone')
    expect(await store.check('203.0.113.9', 30022, key(OTHER), 'i-new')).toEqual({ status: 'unknown' })
    expect(await store.check('203.0.113.9', 30022, key(OTHER), 'i-gone')).toMatchObject({ status: 'changed' })
    // The same key from a new instance (an image with its host key baked in) is the same key.
    expect(await store.check('203.0.113.9', 30022, key(ED25519), 'i-new')).toEqual({ status: 'known' })

    await store.remember('203.0.113.9', 30022, key(OTHER), 'i-new')
    expect(await store.check('203.0.113.9', 30022, key(ED25519), 'i-new')).toMatchObject({ status: 'changed' })
    expect((await readFile(store.appFile, 'utf8')).trim().split('\n')).toEqual([
      `[203.0.113.9]:30022 ssh-ed25519 ${OTHER} cloud-tray-instance=i-new`
    ])
  })
})
