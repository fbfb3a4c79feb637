/**
 * Toasts: short messages for transitions and errors. Errors stay until dismissed (they ask the
 * user to do something); the rest go after a few seconds.
 */
export type ToastTone = 'info' | 'success' | 'warning' | 'error'

/** A choice offered in the toast itself (the cost guard's "Keep running", "Stop now"). */
export interface ToastAction {
  label: string
  run: () => void | Promise<void>
}

export interface Toast {
  id: number
  tone: ToastTone
  title: string
  body?: string
  actions?: ToastAction[]
}

const INFO_MS = 6000
const MAX_TOASTS = 5

class ToastStore {
  items = $state<Toast[]>([])
  private nextId = 1

  /** A toast with actions stays until acted on or dismissed, like an error: it asks for a choice. */
  show(tone: ToastTone, title: string, body?: string, actions?: ToastAction[]): number {
    const id = this.nextId++
    this.items = [...this.items, { id, tone, title, ...(body ? { body } : {}), ...(actions?.length ? { actions } : {}) }].slice(-MAX_TOASTS)
    if (tone !== 'error' && !actions?.length) setTimeout(() => this.dismiss(id), INFO_MS)
    return id
  }

  dismiss(id: number): void {
    this.items = this.items.filter((toast) => toast.id !== id)
  }
}

export const toasts = new ToastStore()
