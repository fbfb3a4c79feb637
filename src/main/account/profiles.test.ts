import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ProfilesStore, defaultProfilesFile, normaliseBaseUrl, profilesState, removeProfile, saveProfile, selectProfile } from './profiles'

describe('profiles', () => {
  const sandbox = {
    apiUrl: 'http://127.0.0.1:4000/api',
    username: 'demo',
    password: 'Per-install-1',
    controlUrl: 'http://127.0.0.1:4001/__emulator'
  }

  it('first run: Sandbox preselected with the demo account and its per-install password (#12 item 1)', () => {
    const state = profilesState(defaultProfilesFile(), 'http://127.0.0.1:4000/api', sandbox)
    expect(state.selectedId).toBe('sandbox')
    expect(state.lastUsername).toBe('demo')
    expect(state.demoPassword).toBe('Per-install-1')
    expect(state.sandbox).toEqual(sandbox)
    // Before the Sandbox runs (or with another API in its place) there is no password to offer.
    expect(profilesState(defaultProfilesFile(), 'http://127.0.0.1:4000/api').demoPassword).toBeUndefined()
    expect(state.profiles.map((p) => [p.name, p.baseUrl])).toEqual([
      ['HPC-AI', 'https://hpc-ai.com/api'],
      ['Sandbox', 'http://127.0.0.1:4000/api']
    ])
  })

  it('add, edit, select, remove a user profile', () => {
    let file = saveProfile(defaultProfilesFile(), { name: 'Lab', baseUrl: 'https://lab.example.com/api/' }, () => 'x')
    expect(file.userProfiles).toEqual([{ id: 'user-x', name: 'Lab', baseUrl: 'https://lab.example.com/api' }])
    file = saveProfile(file, { id: 'user-x', name: 'Lab 2', baseUrl: 'https://lab2.example.com' })
    file = selectProfile(file, 'user-x')
    const state = profilesState(file, '', sandbox)
    expect(state.selectedId).toBe('user-x')
    expect(state.demoPassword).toBeUndefined()
    expect(state.sandbox).toEqual(sandbox)
    expect(state.lastUsername).toBe('')
    file = removeProfile(file, 'user-x')
    expect(file.userProfiles).toEqual([])
    expect(file.selectedId).toBe('sandbox')
  })

  it.each([
    ['not a URL', 'lab'],
    ['plain http to another machine', 'http://lab.example.com/api'],
    ['credentials in the URL', 'https://me:pw@lab.example.com'],
    ['a query', 'https://lab.example.com/api?x=1'],
    ['another scheme', 'ftp://lab.example.com']
  ])('refuses a base URL: %s', (_name, url) => {
    expect(() => normaliseBaseUrl(url)).toThrow(expect.objectContaining({ kind: 'bad-input', field: 'baseUrl' }))
  })

  it('allows plain http only on this machine', () => {
    expect(normaliseBaseUrl('http://127.0.0.1:4000/api/')).toBe('http://127.0.0.1:4000/api')
    expect(normaliseBaseUrl('http://localhost:4000')).toBe('http://localhost:4000')
  })

  it('built-ins cannot be edited or removed; names are unique', () => {
    expect(() => removeProfile(defaultProfilesFile(), 'hpc-ai')).toThrow(expect.objectContaining({ kind: 'not-allowed' }))
    expect(() => saveProfile(defaultProfilesFile(), { id: 'sandbox', name: 'S', baseUrl: 'https://a.b' })).toThrow(
      expect.objectContaining({ kind: 'not-allowed' })
    )
    expect(() => saveProfile(defaultProfilesFile(), { name: 'sandbox', baseUrl: 'https://a.b' })).toThrow(
      expect.objectContaining({ field: 'name' })
    )
  })
})

describe('the profiles file', () => {
  it('a profile the disk refuses is not added, and the error says why in words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudtray-profiles-'))
    try {
      const store = new ProfilesStore(dir)
      await store.load()
      mkdirSync(join(dir, 'profiles.json'))
      const refused = store.update((file) => saveProfile(file, { name: 'Staging', baseUrl: 'https://staging.example/api' }))
      await expect(refused).rejects.toMatchObject({
        kind: 'io',
        message: `Could not save your profiles in ${join(dir, 'profiles.json')}: a folder is where the file should be. Nothing was changed; fix that and try again.`
      })
      expect(store.get().userProfiles).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
