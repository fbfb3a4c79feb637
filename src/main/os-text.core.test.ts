/**
 * Server text on its way to the OS, through the real core: an instance name with a
 * right-to-left override reaches the tray, a notification and a notebook window title only
 * neutralised (os-text.ts), whatever part of the core built the text.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createCoreRig, type CoreRig } from './testing/core-harness'
import type { TrayMenuItem } from '../shared/contract'

let rig: CoreRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const RLO = '\u202E'
const labels = (items: readonly TrayMenuItem[]): string[] => items.flatMap((i) => [i.label, ...labels(i.submenu ?? [])])

describe('text the core hands to the OS', () => {
  it('#12 item 11: bidi overrides in a name never reach tray labels, tooltip, notifications or window titles raw', async () => {
    rig = await createCoreRig()
    await rig.login()
    const [id] = await rig.emulator.control.seedInstances('demo', 1, { name: `invoice${RLO}fdp.exe`, status: 'Starting' })
    await rig.call('instances.refresh')
    rig.emulator.control.setStatus(id!, 'Running')
    await rig.call('instances.refresh')
    await rig.call('tray.activate', { itemId: `instance:${id}:notebook` })

    const tray = rig.platform.trays.at(-1)!
    expect(labels(tray.items)).toContain('invoice\uFFFDfdp.exe-1 — Running')
    const ready = rig.platform.notifications.find((n) => n.kind === 'ready')
    expect(ready?.title).toBe('«invoice\uFFFDfdp.exe-1» is ready')
    expect(rig.platform.notebooks.map((n) => n.instanceName)).toEqual(['invoice\uFFFDfdp.exe-1'])
    const everything = JSON.stringify([rig.platform.trays, rig.platform.notifications, rig.platform.notebooks])
    expect(everything).not.toContain(RLO)
    expect(everything).not.toContain('\\u202e')
  })
})
