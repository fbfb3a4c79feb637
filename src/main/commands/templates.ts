/**
 * Launch templates and "Launch again" (templates/templates.ts): the list, saving, renaming,
 * duplicating, deleting, the JSON file in and out (through the shell's file dialogs, or the
 * page's), the review step a template fills with today's price and stock, and a launch without
 * the window (the command line's `cloud-tray launch --template NAME`, #27) through the Create
 * button's own create-once path.
 */
import type { InstanceCatalog } from '../../shared/catalog'
import { AppError, FailedResult } from '../app-error'
import { firstInStock, targetWords } from '../availability/stock'
import type { ClientId, CreateCommand, Platform } from '../core-types'
import { windowToAsk } from '../core-types'
import { MAX_TEMPLATE_FILE_BYTES } from '../templates/template-file'
import type { Templates } from '../templates/templates'
import type { CommandGroup } from './dispatcher'

export interface TemplateServices {
  templates: Templates
  platform: Pick<Platform, 'saveFile' | 'openFile'>
  /** A catalog read at most `maxAgeMs` old. */
  catalog: { current(maxAgeMs: number): Promise<InstanceCatalog | null> }
  /** The Create button's own command (create-once; this app's own action; the launch book). */
  create: CreateCommand
  /** Only while signed in: templates belong to the session's profile. */
  signedIn(): boolean
}

type TemplateCommand =
  | 'templates.list'
  | 'templates.save'
  | 'templates.rename'
  | 'templates.duplicate'
  | 'templates.delete'
  | 'templates.export'
  | 'templates.import'
  | 'templates.importFile'
  | 'templates.review'
  | 'templates.launch'
  | 'launches.again'

/** A launch without the window reads the catalog first: nobody looks at a review that could be stale. */
const LAUNCH_CATALOG_AGE_MS = 0

export function templateCommands(services: TemplateServices): CommandGroup<TemplateCommand> {
  const { templates } = services
  const session = (): void => {
    if (!services.signedIn()) throw new AppError('no-session', 'Sign in first: templates belong to the profile you sign in to.')
  }
  const save = async (file: { fileName: string; text: string }, clientId: ClientId) => {
    // A shell without a save dialog (the command line) gets the file to write itself.
    if (!services.platform.saveFile) return file
    const where = await services.platform.saveFile(
      { title: 'Export launch template', defaultName: file.fileName, text: file.text, extensions: ['json'] },
      windowToAsk(clientId)
    )
    if (where === null) return { ...file, cancelled: true as const }
    return where === 'page' ? file : { ...file, savedTo: where }
  }
  return {
    handlers: {
      'templates.list': async () => {
        session()
        return templates.list()
      },
      'templates.save': async (input) => {
        session()
        return templates.save(input)
      },
      'templates.rename': async ({ templateId, name }) => templates.rename(templateId, name),
      'templates.duplicate': async ({ templateId }) => templates.duplicate(templateId),
      'templates.delete': async ({ templateId }) => templates.remove(templateId),
      'templates.export': async ({ templateId }, { clientId }) => save(templates.exportFile(templateId), clientId),
      'templates.import': async ({ text, name }) => {
        session()
        return templates.importText(text, name)
      },
      'templates.importFile': async () => {
        session()
        if (!services.platform.openFile)
          throw new AppError('not-allowed', 'Choose the file on the page: this shell has no file dialog of its own.')
        const file = await services.platform.openFile({
          title: 'Import launch template',
          maxBytes: MAX_TEMPLATE_FILE_BYTES,
          extensions: ['json']
        })
        return file ? templates.importText(file.text) : null
      },
      'templates.review': async ({ templateId }) => {
        session()
        return templates.reviewFill(templateId)
      },
      'templates.launch': async ({ template: ref, name }) => {
        session()
        const template = templates.find(ref)
        if (!template) throw new AppError('not-allowed', `You have no template named «${ref}» on this profile.`)
        const { request, regions } = template.spec
        const target = { instanceTypeId: request.instanceTypeId, regions, chargeMode: request.billing.chargeMode }
        const catalog = await services.catalog.current(LAUNCH_CATALOG_AGE_MS)
        const found = firstInStock(catalog, target)
        if (!found)
          throw new AppError(
            'out-of-stock',
            `${targetWords(catalog, target)} is out of stock today. Watch for it in Cloud Tray (the template's launch offers it), or try later.`
          )
        const created = await services.create(
          { ...request, region: found.regionId, ...(name !== undefined ? { name } : {}) },
          { templateId: template.templateId }
        )
        if (!created.ok) throw new FailedResult(created.error)
        return { instanceId: created.value.instanceId, regionId: found.regionId, hourlyRate: found.hourlyRate }
      },
      'launches.again': async ({ instanceId, review }) => templates.againFill(instanceId, review ?? false)
    }
  }
}
