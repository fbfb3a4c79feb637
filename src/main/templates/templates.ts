/**
 * Launch templates and what each instance was launched with (#26). Templates live with the
 * profile (`<dataDir>/templates.json`; nothing secret in them, so never the keychain) and survive
 * restarts; a name is unique per profile. The launch book (launch-book.ts) records every create
 * this app makes, heard on the hub (`launched`), so "Launch again" fills every field.
 *
 * It answers fills for the create form: a template's launch with today's price and stock (the
 * first of its regions in stock, from a catalog read at most a minute old), "Launch again" on an
 * instance, editing a template. It tells the windows its list as the `templates` event.
 */
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Instance } from '../../shared/api'
import type { InstanceCatalog } from '../../shared/catalog'
import type { Clock } from '../../shared/clock'
import type { KnownImage, Profile } from '../../shared/contract'
import type { LaunchFill, LaunchSpec, LaunchTemplate, TemplateInput } from '../../shared/contract-launch'
import { LaunchSpecSchema, RelaunchRuleSchema, TemplateNameSchema } from '../../shared/launch-spec'
import { AppError } from '../app-error'
import { firstInStock, offerWords } from '../availability/stock'
import type { EventFeed, EventSink } from '../core-types'
import { ScopedStore, scopedStoresOf } from '../util/scoped-store'
import { launchBook, launchRecord, specFromListing, type LaunchRecord } from './launch-book'
import { readTemplateJson, templateFileName, templateFileText } from './template-file'
import type { SaveProblems } from '../util/save-problems'

const TemplateRecordSchema = z.object({
  templateId: z.string().min(1).max(200),
  name: TemplateNameSchema,
  spec: LaunchSpecSchema,
  relaunch: RelaunchRuleSchema.nullable(),
  createdAt: z.number().finite(),
  updatedAt: z.number().finite()
}) satisfies z.ZodType<LaunchTemplate, unknown>

/** More than a tray menu can hold usefully; a profile keeps at most this many. */
export const MAX_TEMPLATES_PER_PROFILE = 200

export interface TemplatesOptions {
  dataDir: string
  clock: Pick<Clock, 'now'>
  /** Where a refused write of the templates or the launch book is told to the user. */
  problems: SaveProblems
  /** The hub: `templates` when the list changes. */
  emit: EventSink
  /** The hub: every create this app makes (`launched`) goes into the launch book. */
  events: EventFeed
  /** Whose templates (the session's profile) and whose launch book (the account). */
  account: { currentProfile(): Profile; accountKey(): string | undefined }
  /** The catalog: a read at most `maxAgeMs` old (for today's stock), and the images the form knows. */
  catalog: { current(maxAgeMs: number): Promise<InstanceCatalog | null>; images(): KnownImage[] }
  /** The instance as the watcher last listed it. */
  find(instanceId: string): Instance | undefined
  log?: { warn(message: string, data?: unknown): void } | undefined
}

/** A template's review reads the catalog again when the last read is older than this. */
export const REVIEW_CATALOG_AGE_MS = 60_000

export class Templates {
  private readonly store: ScopedStore<LaunchTemplate>
  readonly launches: ScopedStore<LaunchRecord>

  constructor(private readonly options: TemplatesOptions) {
    const now = () => options.clock.now()
    const store = scopedStoresOf('templates', options)
    this.store = store({ file: 'templates.json', record: TemplateRecordSchema, what: 'your launch templates' })
    this.launches = launchBook(store)
    options.events.on('launched', ({ instanceId, request, origin }) => {
      const scope = options.account.accountKey()
      if (scope) this.launches.set(scope, instanceId, launchRecord(request, origin, now()))
    })
  }

  /** Both files; a sentence for the user per file that had to be set aside. */
  async load(): Promise<string[]> {
    const results = await Promise.all([this.store.load(), this.launches.load()])
    return results.flatMap((result) => (result.warning ? [result.warning] : []))
  }

  flushed(): Promise<void> {
    return Promise.all([this.store.flushed(), this.launches.flushed()]).then(() => undefined)
  }

  /** The session's profile's templates, by name. */
  list(): LaunchTemplate[] {
    return this.store
      .entries(this.profileId())
      .map(([, template]) => template)
      .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))
  }

  /** A template by its id, or by its name (any case): what the command line names it by. */
  find(ref: string): LaunchTemplate | undefined {
    const byId = this.store.get(this.profileId(), ref)
    if (byId) return byId
    const wanted = ref.trim().toLowerCase()
    return this.list().find((template) => template.name.toLowerCase() === wanted)
  }

  require(templateId: string): LaunchTemplate {
    const template = this.store.get(this.profileId(), templateId)
    if (!template) throw new AppError('not-allowed', 'That template is no longer there: it was deleted, or belongs to another profile.')
    return template
  }

  /** Saves a new template, or replaces one (its id given); names are unique per profile. */
  save(input: TemplateInput): LaunchTemplate {
    const now = this.options.clock.now()
    const before = input.templateId !== undefined ? this.require(input.templateId) : undefined
    const name = this.freeName(input.name, before?.templateId)
    if (!before && this.list().length >= MAX_TEMPLATES_PER_PROFILE)
      throw new AppError('not-allowed', `A profile keeps at most ${MAX_TEMPLATES_PER_PROFILE} templates. Delete one you no longer use.`)
    const template: LaunchTemplate = {
      templateId: before?.templateId ?? randomUUID(),
      name,
      spec: input.spec,
      relaunch: input.relaunch,
      createdAt: before?.createdAt ?? now,
      updatedAt: now
    }
    this.put(template)
    return template
  }

  rename(templateId: string, name: string): LaunchTemplate {
    const template = this.require(templateId)
    const renamed = { ...template, name: this.freeName(name, templateId), updatedAt: this.options.clock.now() }
    this.put(renamed)
    return renamed
  }

  /** A copy under a free name ("train (copy)", "train (copy 2)", …). */
  duplicate(templateId: string): LaunchTemplate {
    const template = this.require(templateId)
    const base = `${template.name.slice(0, 60)} (copy`
    let name = `${base})`
    for (let n = 2; this.taken(name); n++) name = `${base} ${n})`
    const { templateId: _old, createdAt: _created, updatedAt: _updated, ...rest } = template
    return this.save({ ...rest, name })
  }

  remove(templateId: string): LaunchTemplate[] {
    this.require(templateId)
    this.store.delete(this.profileId(), templateId)
    this.changed()
    return this.list()
  }

  /** The template as the file the user keeps (template-file.ts). */
  exportFile(templateId: string): { fileName: string; text: string } {
    const template = this.require(templateId)
    return { fileName: templateFileName(template), text: templateFileText(template) }
  }

  /** A template from an exported file or a console create request; a bad field is named and nothing is saved. */
  importText(text: string, name?: string): LaunchTemplate {
    const input = readTemplateJson(text, name)
    // An imported template never replaces one: a name already used gets a number.
    let free = input.name
    for (let n = 2; this.taken(free); n++) free = `${input.name.slice(0, 70)} (${n})`
    const { templateId: _ignored, ...rest } = input
    return this.save({ ...rest, name: free })
  }

  /**
   * A template's launch at the review step with today's price and stock: the catalog is read
   * again when older than a minute, and the first of its regions with stock is chosen. Out of
   * stock in all of them, the first region is shown and the review offers the watch.
   */
  async reviewFill(templateId: string): Promise<LaunchFill> {
    const template = this.require(templateId)
    const catalog = await this.options.catalog.current(REVIEW_CATALOG_AGE_MS)
    const { request, regions } = template.spec
    const inStock = firstInStock(catalog, { instanceTypeId: request.instanceTypeId, regions, chargeMode: request.billing.chargeMode })
    const region = inStock?.regionId ?? regions[0] ?? request.region
    const note = inStock
      ? `From your template «${template.name}»: ${offerWords(catalog, request.instanceTypeId, region, request.billing.chargeMode)} today.`
      : `From your template «${template.name}»: out of stock today in ${regions.length > 1 ? 'all its regions' : 'its region'}. You can watch for it.`
    return {
      spec: { ...template.spec, request: { ...request, region } },
      review: true,
      note,
      origin: { templateId: template.templateId }
    }
  }

  /** "Edit template": the form filled with it, saving back to it. */
  editFill(templateId: string): LaunchFill {
    const template = this.require(templateId)
    return {
      spec: template.spec,
      review: false,
      note: `Editing your template «${template.name}». Save the changes, or launch from the form as it is.`,
      editTemplate: { templateId: template.templateId, name: template.name }
    }
  }

  /**
   * "Launch again" on an instance: what this app launched it with, else what its listing says
   * (naming what the listing cannot say). `review`: straight to the review step (a reclaim's
   * "Relaunch like this one").
   */
  againFill(instanceId: string, review: boolean): LaunchFill {
    const recorded = this.recorded(instanceId)
    const instance = this.options.find(instanceId)
    const name = instance?.instanceSpecInfo.name ?? recorded?.request.name ?? instanceId
    const origin = { relaunchOf: instanceId, ...(recorded?.origin?.templateId ? { templateId: recorded.origin.templateId } : {}) }
    if (recorded) {
      const image = this.options.catalog.images().find((known) => known.imageId === recorded.request.imageId)
      return {
        spec: {
          request: recorded.request,
          regions: [recorded.request.region],
          ...(image && image.label !== image.imageId ? { imageLabel: image.label } : {})
        },
        review,
        note: `Filled from «${name}», as Cloud Tray launched it.`,
        origin
      }
    }
    if (!instance)
      throw new AppError(
        'not-allowed',
        'That instance is no longer listed, and Cloud Tray did not launch it: there is nothing to fill the form from.'
      )
    const listed = specFromListing(instance, this.options.catalog.images())
    const unsaid = listed.missing.includes('imageId')
      ? ' Its listing does not say which image id it was launched from, nor its init script: choose the image.'
      : ' Its listing does not say its init script.'
    return {
      spec: listed.spec,
      review: review && !listed.missing.includes('imageId'),
      note: `Filled from «${name}»'s listing (it was not launched from this Cloud Tray).${unsaid}`,
      origin,
      missing: listed.missing
    }
  }

  /**
   * What a reclaimed instance is relaunched with: its launch as recorded (every field, its
   * volumes included), free to go to any of its template's regions; undefined when this app did
   * not launch it (its listing does not say its image id or init script).
   */
  launchOf(instanceId: string): { spec: LaunchSpec; templateId?: string } | undefined {
    const recorded = this.recorded(instanceId)
    if (!recorded) return undefined
    const templateId = recorded.origin?.templateId
    const template = templateId ? this.store.get(this.profileId(), templateId) : undefined
    const regions = [...new Set([recorded.request.region, ...(template?.spec.regions ?? [])])]
    return { spec: { request: recorded.request, regions }, ...(templateId ? { templateId } : {}) }
  }

  /** What this app launched the instance with, when it did (this account). */
  recorded(instanceId: string): LaunchRecord | undefined {
    const scope = this.options.account.accountKey()
    return scope ? this.launches.get(scope, instanceId) : undefined
  }

  // ------------------------------------------------------------------ internals

  private profileId(): string {
    return this.options.account.currentProfile().id
  }

  private taken(name: string, except?: string): boolean {
    const wanted = name.trim().toLowerCase()
    return this.list().some((template) => template.templateId !== except && template.name.toLowerCase() === wanted)
  }

  private freeName(name: string, except?: string): string {
    const trimmed = name.trim()
    if (this.taken(trimmed, except))
      throw new AppError('not-allowed', `You already have a template named «${trimmed}». Choose another name.`, { field: 'name' })
    return trimmed
  }

  private put(template: LaunchTemplate): void {
    this.store.set(this.profileId(), template.templateId, template)
    this.changed()
  }

  private changed(): void {
    this.options.emit('templates', this.list())
  }
}
