/**
 * The launch templates of the session's profile as main last told them (#26), and what the
 * window does with them: launch (the review step with today's price and stock), edit through the
 * create form, save, rename, duplicate, delete, export and import as JSON.
 */
import type { ErrorInfo, Result } from '../../../shared/contract'
import type { LaunchTemplate, TemplateInput } from '../../../shared/contract-launch'
import { call } from '../lib/bridge'
import { Mirror, MirroredStore } from '../lib/mirror.svelte'
import { toasts } from '../lib/toasts.svelte'
import { launchContext } from './launch-context.svelte'

class TemplatesStore extends MirroredStore {
  protected readonly mirror = new Mirror({ event: 'templates', read: () => call('templates.list'), initial: [] as LaunchTemplate[] })

  get list(): LaunchTemplate[] {
    return this.mirror.value
  }

  get loadError(): ErrorInfo | null {
    return this.mirror.error
  }

  save(input: TemplateInput): Promise<Result<LaunchTemplate>> {
    return call('templates.save', input)
  }

  rename(templateId: string, name: string): Promise<Result<LaunchTemplate>> {
    return call('templates.rename', { templateId, name })
  }

  async duplicate(template: LaunchTemplate): Promise<void> {
    const result = await call('templates.duplicate', { templateId: template.templateId })
    if (!result.ok) toasts.show('error', `Could not duplicate «${template.name}»`, result.error.message)
  }

  async remove(template: LaunchTemplate): Promise<void> {
    const result = await call('templates.delete', { templateId: template.templateId })
    if (!result.ok) toasts.show('error', `Could not delete «${template.name}»`, result.error.message)
  }

  /** Launch: the review step, with today's price and stock. */
  async launch(template: LaunchTemplate): Promise<void> {
    const result = await call('templates.review', { templateId: template.templateId })
    if (result.ok) launchContext.open(result.value)
    else toasts.show('error', `Could not open «${template.name}»`, result.error.message)
  }

  /** Edit through the normal form: it saves back to the template. */
  edit(template: LaunchTemplate): void {
    launchContext.open({
      spec: template.spec,
      review: false,
      note: `Editing your template «${template.name}». Save the changes, or launch from the form as it is.`,
      editTemplate: { templateId: template.templateId, name: template.name },
      origin: { templateId: template.templateId }
    })
  }

  /** Export as JSON: Electron asks where; the web shell's page downloads it (the `download` event). */
  async exportFile(template: LaunchTemplate): Promise<void> {
    const result = await call('templates.export', { templateId: template.templateId })
    if (!result.ok) toasts.show('error', `Could not export «${template.name}»`, result.error.message)
    else if (result.value.savedTo) toasts.show('success', `Exported «${template.name}»`, `Saved as ${result.value.savedTo}.`)
  }

  /** A template file's text (or a console create request) into a template; the problem, naming the field, when refused. */
  async importText(text: string, name?: string): Promise<ErrorInfo | null> {
    const result = await call('templates.import', { text, ...(name?.trim() ? { name: name.trim() } : {}) })
    if (result.ok) toasts.show('success', `Imported «${result.value.name}»`)
    return result.ok ? null : result.error
  }

  /** Import through the shell's own file dialog (Electron). */
  async importFile(): Promise<ErrorInfo | null> {
    const result = await call('templates.importFile')
    if (result.ok && result.value) toasts.show('success', `Imported «${result.value.name}»`)
    return result.ok ? null : result.error
  }
}

export const templates = new TemplatesStore()
