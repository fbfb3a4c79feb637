/**
 * Where a launch in the create form came from (#26): a template's review, "Launch now" when stock
 * came, "Launch again", editing a template. Main answers (or sends, as `navigate`) a fill; this
 * puts it in the form's draft, keeps what the form shows about it (the note, the template being
 * edited, the region choices) and what `instances.create` is told (its origin), and asks the form
 * for the review step when the fill says so.
 */
import type { LaunchFill, LaunchOrigin } from '../../../shared/contract-launch'
import { createDraft } from '../create/create-draft.svelte'
import { nav } from '../lib/nav.svelte'
import { draftFromSpec } from './launch-spec'

class LaunchContext {
  /** Said above the form ("From your template «train»: … today."). */
  note = $state<string | null>(null)
  origin = $state<LaunchOrigin | undefined>(undefined)
  /** The form edits this template: "Save changes to the template" saves it back. */
  editTemplate = $state<{ templateId: string; name: string } | null>(null)
  /** The regions the launch accepts (a template's choices); the draft's region is the one chosen now. */
  regions = $state<string[]>([])
  /** Fields the fill could not say: the form asks for them. */
  missing = $state<string[]>([])
  /** The form opens the review step as soon as it can (a template's launch, Launch now). */
  reviewRequested = $state(false)

  /** Fills the create form from main's fill and shows it (at the review step when asked). */
  open(fill: LaunchFill): void {
    createDraft.reset()
    createDraft.draft = draftFromSpec(fill.spec)
    this.note = fill.note ?? null
    this.origin = fill.origin
    this.editTemplate = fill.editTemplate ?? null
    this.regions = [...fill.spec.regions]
    this.missing = fill.missing ?? []
    this.reviewRequested = fill.review
    nav.go({ view: 'create-instance' })
  }

  /** The form was cleared, or its launch went out: nothing of the fill is left. */
  clear(): void {
    this.note = null
    this.origin = undefined
    this.editTemplate = null
    this.regions = []
    this.missing = []
    this.reviewRequested = false
  }
}

export const launchContext = new LaunchContext()
