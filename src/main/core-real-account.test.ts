/**
 * A real account's first hour in the core, against the emulator (issue #15): the balance in the
 * window and tray with its low-balance warning, a stuck start told once, and the create form's
 * catalog and images answered at once and refreshed in the background.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { NEVER_PULLING_IMAGE_ID } from '../emulator/index'
import { createCoreRig, createRequest, type CoreRig } from './testing/core-harness'

let rig: CoreRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const trayLabel = (r: CoreRig, id: string): string | undefined => r.platform.trays.at(-1)?.items.find((item) => item.id === id)?.label

describe('the balance', () => {
  it('is read at sign-in, shown in the tray, and warns once when it falls below the threshold', async () => {
    rig = await createCoreRig()
    await rig.login()
    const r = rig
    await expect.poll(() => r.of('balance').at(-1)?.balance?.availableBalance).toBe(100)
    // Vouchers and credits are part of what can be spent (#24: the tray left them out).
    expect(trayLabel(r, 'balance')).toBe('Balance: $100.00 + $5.00 vouchers and credits')

    r.emulator.control.setBalance('demo', { balance: 3.5 })
    const refreshed = await r.call('balance.refresh')
    expect(refreshed).toMatchObject({ ok: true, value: { balance: { balance: 3.5, availableVoucherAmount: 5 } } })
    expect(r.platform.notifications.filter((n) => n.kind === 'low-balance').map((n) => n.title)).toEqual(['Practice balance low: $3.50'])
    expect(trayLabel(r, 'balance')).toBe('Balance low: $3.50 + $5.00 vouchers and credits')
    await r.call('balance.refresh')
    expect(r.platform.notifications.filter((n) => n.kind === 'low-balance')).toHaveLength(1)

    // A threshold set below the balance stops the warning; signing out forgets the amount.
    expect((await r.call('settings.update', { lowBalanceThreshold: 1 })).ok).toBe(true)
    await r.call('session.logout')
    expect(r.of('balance').at(-1)).toEqual({ balance: null, fetchedAt: null })
  })
})

describe('a stuck start', () => {
  it('an image that never pulls gives one notification saying what the cloud reports', async () => {
    rig = await createCoreRig()
    await rig.login()
    const created = await rig.call('instances.create', {
      request: createRequest(rig.emulator, 'stuck-one', { imageId: NEVER_PULLING_IMAGE_ID })
    })
    expect(created.ok).toBe(true)
    for (let i = 0; i < 5; i++) {
      rig.emulator.control.advance(2_000)
      await rig.call('instances.refresh')
    }
    const stuck = rig.platform.notifications.filter((n) => n.kind === 'stuck')
    expect(stuck).toHaveLength(1)
    expect(stuck[0]).toMatchObject({
      title: '«stuck-one» is stuck starting',
      body: expect.stringMatching(/BackOff.*download-image.*delete it for good/)
    })
    expect(rig.of('instances').at(-1)!.stuck).toEqual([expect.objectContaining({ name: 'stuck-one', reason: 'back-off' })])
    expect(trayLabel(rig, `instance:${created.ok && created.value.instanceId}`)).toBe('stuck-one — stuck starting')
  })
})

describe("the create form's catalog and images", () => {
  it('answers at once from the cache, reads in the background, and puts launched images first', async () => {
    rig = await createCoreRig()
    await rig.login()
    const r = rig
    // The sign-in started a background read; the form's first ask never waits on it.
    await expect.poll(() => r.of('catalog').at(-1)?.catalog?.offers.length ?? 0).toBeGreaterThan(0)
    const view = await r.call('catalog.get')
    expect(view).toMatchObject({ ok: true, value: { profileId: 'sandbox', refreshing: false } })
    expect(view.ok && view.value.catalog?.offers.some((o) => o.instanceTypeId === 'gpu-h100-sxm-8x' && o.stock === 'out-of-stock')).toBe(
      true
    )

    const saved = await r.call('images.save', { imageId: 'img-pytorch-2.3-cuda12.1', label: 'Old PyTorch' })
    expect(saved.ok && saved.value.images.map((i) => [i.imageId, i.label, i.source])).toEqual([
      ['img-pytorch-2.3-cuda12.1', 'Old PyTorch', 'mine']
    ])
    await r.call('instances.create', { request: createRequest(r.emulator, 'with-image') })
    const after = await r.call('catalog.get')
    expect(after.ok && after.value.images.map((i) => i.imageId)).toEqual(['img-pytorch-2.5-cuda12.4', 'img-pytorch-2.3-cuda12.1'])
  })
})
