import { mkdir, mkdtemp, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import { AppError } from '../app-error'
import { DEFAULT_SETTINGS } from './settings-schema'
import { SettingsStore } from './settings-store'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloud-tray-settings-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('settings store', () => {
  it('defaults when there is no file; updates are written and read back', async () => {
    const store = new SettingsStore(dir, new ManualClock())
    expect((await store.load()).settings).toEqual(DEFAULT_SETTINGS)
    await store.update({ theme: 'dark', notifications: { stopped: false } })
    const again = new SettingsStore(dir, new ManualClock())
    const { settings, warning } = await again.load()
    expect(warning).toBeUndefined()
    expect(settings.theme).toBe('dark')
    expect(settings.notifications).toEqual({ ...DEFAULT_SETTINGS.notifications, stopped: false })
    expect(await readdir(dir)).toEqual(['settings.json'])
  })

  it('fills fields missing from an older file with defaults', async () => {
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ theme: 'light', extra: 1 }))
    const { settings, warning } = await new SettingsStore(dir, new ManualClock()).load()
    expect(warning).toBeUndefined()
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, theme: 'light' })
  })

  it.each([
    ['not JSON', '{ theme: '],
    ['wrong types', JSON.stringify({ theme: 'purple' })]
  ])('an invalid file (%s): defaults, a warning, the bad file kept aside', async (_name, text) => {
    await writeFile(join(dir, 'settings.json'), text)
    const clock = new ManualClock(1_700_000_000_000)
    const { settings, warning } = await new SettingsStore(dir, clock).load()
    expect(settings).toEqual(DEFAULT_SETTINGS)
    expect(warning).toMatch(/default settings/)
    expect(await readFile(join(dir, 'settings.json.bad-1700000000000'), 'utf8')).toBe(text)
  })

  it('refuses an invalid patch and keeps the old settings', async () => {
    const store = new SettingsStore(dir, new ManualClock())
    await store.load()
    await expect(store.update({ terminalFontSize: 400 })).rejects.toThrow()
    await expect(store.update({ bogus: true } as never)).rejects.toThrow()
    expect(store.get()).toEqual(DEFAULT_SETTINGS)
  })

  it('a change that cannot be written is not made: the settings stay as they were, and the error says why', async () => {
    const store = new SettingsStore(dir, new ManualClock())
    await store.load()
    // A folder where the file goes: the rename fails even for root, as a full or read-only disk would.
    await mkdir(join(dir, 'settings.json'))
    const refused = store.update({ theme: 'dark' })
    await expect(refused).rejects.toBeInstanceOf(AppError)
    await expect(refused).rejects.toMatchObject({ kind: 'io', message: expect.stringMatching(/a folder is where the file should be/) })
    expect(store.get()).toEqual(DEFAULT_SETTINGS)

    await rmdir(join(dir, 'settings.json'))
    await store.update({ notifications: { stopped: false } })
    const written = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))
    expect(written.theme).toBe(DEFAULT_SETTINGS.theme)
    expect(written.notifications.stopped).toBe(false)
  })

  it('changes made at once are each kept, in order', async () => {
    const store = new SettingsStore(dir, new ManualClock())
    await store.load()
    const [first, second] = await Promise.all([store.update({ theme: 'dark' }), store.update({ notifications: { stopped: false } })])
    expect(first.theme).toBe('dark')
    expect(second).toMatchObject({ theme: 'dark', notifications: { stopped: false } })
    const again = new SettingsStore(dir, new ManualClock())
    expect((await again.load()).settings).toEqual(second)
  })
})
