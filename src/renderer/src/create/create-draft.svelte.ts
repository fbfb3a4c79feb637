/**
 * The create-instance draft lives here, not in the view: it survives navigating away and back,
 * and a re-login (the dialog opens over the form; nothing is unmounted or reset).
 */
import { emptyDraft, type CreateDraft, type FieldErrors } from './create-form'

class DraftStore {
  draft = $state<CreateDraft>(emptyDraft())
  /** Errors from the server, by field path; cleared when that field is edited. */
  serverErrors = $state<FieldErrors>({})
  /** A server error that names no field of the form. */
  formError = $state<string | null>(null)
  /**
   * After a create whose outcome is unknown: an instance exists that may or may not be its
   * result. The form asks: open it, or create anyway.
   */
  maybeCreated = $state<{ instanceId: string; message: string } | null>(null)
  submitting = $state(false)

  /** The server's error for a field goes away once the user changes that field. */
  edited(field: string): void {
    if (field in this.serverErrors) {
      const { [field]: _gone, ...rest } = this.serverErrors
      this.serverErrors = rest
    }
  }

  reset(): void {
    this.draft = emptyDraft()
    this.serverErrors = {}
    this.formError = null
    this.maybeCreated = null
  }
}

export const createDraft = new DraftStore()
