/**
 * Launch templates through the core against the emulator (#26): saved with the profile and kept
 * across a restart, renamed, duplicated, deleted, names unique; a template's review with today's
 * price and stock (the first of its regions in stock) from the window and from the tray; the JSON
 * file out and back in, a bad field named and nothing saved; a console create request pasted in;
 * a launch without the window (the command line's path); "Launch again" from the launch book and
 * from a listing.
 */
import { mkdir, readFile, rmdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Warning } from '../../shared/contract'
import type { LaunchTemplate, TemplateInput } from '../../shared/contract-launch'
import { EVERY_PART } from '../../shared/testing/create-request'
import { createRequest, type CoreRig } from '../testing/core-harness'
import { coreRigsPerTest } from '../testing/core-rigs'
import { until } from '../testing/emulated-time'

const H100X8 = 'gpu-h100-sxm-8x'

const rigs = coreRigsPerTest()

async function signedIn(): Promise<{ r: CoreRig; usWest: string; singapore: string; frankfurt: string }> {
  const r = await rigs.open()
  await r.login()
  const [usWest, singapore, frankfurt] = r.emulator.control.catalog().regions.map((region) => region.regionId)
  return { r, usWest: usWest!, singapore: singapore!, frankfurt: frankfurt! }
}

function input(r: CoreRig, name: string, regions: string[], overrides: Parameters<typeof createRequest>[2] = {}): TemplateInput {
  return {
    name,
    spec: {
      request: createRequest(r.emulator, 'trainer', { region: regions[0]!, nodePorts: [8888], ...overrides }),
      regions,
      imageLabel: 'PyTorch'
    },
    relaunch: null
  }
}

async function save(r: CoreRig, template: TemplateInput): Promise<LaunchTemplate> {
  const saved = await r.call('templates.save', template)
  if (!saved.ok) throw new Error(saved.error.message)
  return saved.value
}

async function names(r: CoreRig): Promise<string[]> {
  const list = await r.call('templates.list')
  if (!list.ok) throw new Error(list.error.message)
  return list.value.map((template) => template.name)
}

describe('launch templates (#26)', () => {
  it('are kept with the profile across a restart; renamed, duplicated and deleted; names are unique', async () => {
    const { r, usWest } = await signedIn()
    const first = await save(r, input(r, 'H100 training', [usWest]))
    await r.restart()
    await r.login()
    expect(await names(r)).toEqual(['H100 training'])
    const stored = JSON.parse(await readFile(join(r.dataDir, 'templates.json'), 'utf8'))
    expect(Object.keys(stored.scopes)).toEqual(['sandbox'])

    const clash = await r.call('templates.save', input(r, 'h100 TRAINING', [usWest]))
    expect(!clash.ok && clash.error).toMatchObject({ field: 'name', message: expect.stringMatching(/already have a template named/) })
    expect((await r.call('templates.rename', { templateId: first.templateId, name: 'Big run' })).ok).toBe(true)
    const copy = await r.call('templates.duplicate', { templateId: first.templateId })
    expect(copy.ok && copy.value.name).toBe('Big run (copy)')
    expect(copy.ok && copy.value.spec).toEqual(first.spec)
    expect(await names(r)).toEqual(['Big run', 'Big run (copy)'])
    await r.call('templates.delete', { templateId: first.templateId })
    expect(await names(r)).toEqual(['Big run (copy)'])
    // Editing through the form saves it back by id.
    const edited = { ...input(r, 'Big run (copy)', [usWest], { nodePorts: [6006] }), templateId: copy.ok ? copy.value.templateId : '' }
    expect((await save(r, edited)).spec.request.nodePorts).toEqual([6006])
    expect(
      r
        .of('templates')
        .at(-1)!
        .map((t) => t.name)
    ).toEqual(['Big run (copy)'])
  })

  it('a template the disk refuses is kept while the app runs, the window is warned, and the next write that works clears it', async () => {
    const { r, usWest } = await signedIn()
    const file = join(r.dataDir, 'templates.json')
    // A folder where the file goes: the write fails even for root, as a full disk would.
    await mkdir(file)
    await save(r, input(r, 'Kept in memory', [usWest]))
    const warning = (): Warning | undefined => r.of('warning').findLast((w) => w.id === 'not-saved-templates.json')
    await until(() => warning() !== undefined)
    expect(warning()!.message).toBe(
      `Cloud Tray could not save your launch templates in ${file}: a folder is where the file should be. ` +
        'What changed is kept while Cloud Tray runs, and is saved with the next change once that is fixed.'
    )
    expect(await names(r)).toEqual(['Kept in memory'])

    await rmdir(file)
    await save(r, input(r, 'And this one', [usWest]))
    await until(() => warning()?.cleared === true)
    const stored = JSON.parse(await readFile(file, 'utf8'))
    expect(Object.values(stored.scopes.sandbox).map((t) => (t as LaunchTemplate).name)).toEqual(['Kept in memory', 'And this one'])
  })

  it('reviews a launch with today’s price and stock: the first of its regions in stock', async () => {
    const { r, usWest, singapore } = await signedIn()
    // The 8-GPU H100 is out of stock in US West, in stock in Singapore.
    const template = await save(r, input(r, 'eight', [usWest, singapore], { instanceTypeId: H100X8 }))
    const fill = await r.call('templates.review', { templateId: template.templateId })
    expect(fill.ok && fill.value).toMatchObject({
      review: true,
      origin: { templateId: template.templateId },
      spec: { request: { region: singapore, instanceTypeId: H100X8 }, regions: [usWest, singapore] },
      note: expect.stringMatching(/8 × H100-SXM-80GB in ap-southeast-1 at \$19\.92\/h today/)
    })
    r.emulator.control.setStock(H100X8, singapore, false)
    // A review reads the catalog again once the last read is a minute old.
    r.clock.advance(61_000)
    const none = await r.call('templates.review', { templateId: template.templateId })
    expect(none.ok && none.value).toMatchObject({
      spec: { request: { region: usWest } },
      note: expect.stringMatching(/out of stock today in all its regions/)
    })
  })

  it('launches from the tray in two clicks: the menu lists it, the item opens its review', async () => {
    const { r, usWest } = await signedIn()
    const template = await save(r, input(r, 'quick', [usWest]))
    const menu = r.platform.trays.at(-1)!.items.find((item) => item.id === 'launch-template')!
    expect(menu.submenu!.map((item) => [item.id, item.label])).toEqual([[`template:${template.templateId}:launch`, 'quick…']])
    expect((await r.call('tray.activate', { itemId: `template:${template.templateId}:launch` })).ok).toBe(true)
    expect(r.of('navigate').at(-1)).toMatchObject({
      view: 'create-instance',
      fill: { review: true, origin: { templateId: template.templateId } }
    })
  })

  it('exports JSON and imports it back; a bad field is named and nothing is saved', async () => {
    const { r, usWest } = await signedIn()
    const template = await save(r, { ...input(r, 'shared', [usWest]), relaunch: { maxPricePerHour: 3, withinHours: 12 } })
    const exported = await r.call('templates.export', { templateId: template.templateId })
    if (!exported.ok) throw new Error(exported.error.message)
    // The recording platform has no save dialog: the JSON comes back for the page to save.
    expect(exported.value.fileName).toBe('shared.cloud-tray-template.json')
    const file = JSON.parse(exported.value.text)
    expect(file).toMatchObject({ cloudTrayTemplate: 1, name: 'shared', regions: [usWest], relaunch: { maxPricePerHour: 3 } })

    await r.call('templates.delete', { templateId: template.templateId })
    const back = await r.call('templates.import', { text: exported.value.text })
    expect(back.ok && { ...back.value.spec, name: back.value.name, relaunch: back.value.relaunch }).toEqual({
      ...template.spec,
      name: 'shared',
      relaunch: template.relaunch
    })

    const broken = structuredClone(file)
    broken.request.billing.chargeMode = 'perFortnight'
    const refused = await r.call('templates.import', { text: JSON.stringify(broken) })
    expect(!refused.ok && refused.error).toMatchObject({
      kind: 'bad-input',
      field: 'request.billing.chargeMode',
      message: expect.stringMatching(/^The field “request\.billing\.chargeMode” is wrong: .* Nothing was saved/)
    })
    const badPort = structuredClone(file)
    badPort.request.nodePorts = [8888, 70000]
    const port = await r.call('templates.import', { text: JSON.stringify(badPort) })
    expect(!port.ok && port.error.field).toBe('request.nodePorts.1')
    expect(await names(r)).toEqual(['shared'])
    expect((await r.call('templates.import', { text: '{"cloudTrayTemplate": 1, "name": "x"' })).ok).toBe(false)
  })

  it('makes a template of a pasted console create request', async () => {
    const { r, usWest } = await signedIn()
    const request = { ...createRequest(r.emulator, 'from-console', { region: usWest }), consoleOnlyField: 'ignored' }
    const made = await r.call('templates.import', { text: JSON.stringify(request), name: 'Console launch' })
    expect(made.ok && made.value).toMatchObject({ name: 'Console launch', spec: { regions: [usWest], request: { name: 'from-console' } } })
    const bad = await r.call('templates.import', { text: JSON.stringify({ ...request, region: '' }) })
    expect(!bad.ok && bad.error.field).toBe('request.region')
  })

  it('launches without the window through create-once, or says out of stock', async () => {
    const { r, usWest, singapore } = await signedIn()
    await save(r, input(r, 'cli', [usWest, singapore], { instanceTypeId: H100X8 }))
    const launched = await r.call('templates.launch', { template: 'CLI' })
    expect(launched.ok && launched.value).toMatchObject({ regionId: singapore, hourlyRate: 19.92 })
    const listed = r.emulator.control.instances('demo')
    expect(listed.map((i) => [i.instanceSpecInfo.name, i.instanceSpecInfo.regionInfo.regionId])).toEqual([['trainer', singapore]])
    r.emulator.control.setStock(H100X8, singapore, false)
    const none = await r.call('templates.launch', { template: 'cli' })
    expect(!none.ok && none.error).toMatchObject({ kind: 'out-of-stock', message: expect.stringMatching(/out of stock today/) })
    expect((await r.call('templates.launch', { template: 'nothing' })).ok).toBe(false)
  })

  it('"Launch again" fills every field it was launched with; from a listing it names what is missing', async () => {
    const { r, usWest } = await signedIn()
    const request = createRequest(r.emulator, 'again', { region: usWest, ...EVERY_PART })
    const created = await r.call('instances.create', { request })
    if (!created.ok) throw new Error(created.error.message)
    const again = await r.call('launches.again', { instanceId: created.value.instanceId })
    expect(again.ok && again.value).toMatchObject({ spec: { request }, review: false, origin: { relaunchOf: created.value.instanceId } })

    // Not launched here: read back from its listing; the init script and (unless the form knows an
    // image by the name the listing gives) the image id are named as missing.
    const [seeded] = await r.emulator.control.seedInstances('demo', 1, { name: 'elsewhere' })
    await r.call('instances.refresh')
    const listed = await r.call('launches.again', { instanceId: seeded! })
    expect(listed.ok && listed.value).toMatchObject({
      review: false,
      missing: ['imageId', 'instanceConfiguration.initScript'],
      spec: { request: { name: 'elsewhere-1', imageId: '', region: usWest, nodePorts: [] } },
      note: expect.stringMatching(/does not say which image id/)
    })
    const image = r.emulator.control.catalog().images[0]!
    await r.call('images.save', { imageId: image.imageId, label: image.name })
    const named = await r.call('launches.again', { instanceId: seeded! })
    expect(named.ok && named.value).toMatchObject({
      missing: ['instanceConfiguration.initScript'],
      spec: { request: { imageId: image.imageId } }
    })
  })
})
