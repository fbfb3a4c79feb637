/**
 * Toasts: short messages for what a person waits for and for errors. Errors, and warnings that ask
 * the user to act, stay until dismissed; the rest go after a few seconds.
 */
export type ToastTone = 'info' | 'success' | 'warning' | 'error'

export interface Toast {
  id: number
  tone: ToastTone
  title: string
  body?: string
}

const INFO_MS = 6000
const MAX_TOASTS = 5

class ToastStore {
  items = $state<Toast[]>([])
  private nextId = 1

  /** `sticky`: stays until dismissed, like an error (it asks the user to do something). */
  show(tone: ToastTone, title: string, body?: string, options: { sticky?: boolean } = {}): number {
    const id = this.nextId++
    this.items = [...this.items, { id, tone, title, ...(body ? { body } : {}) }].slice(-MAX_TOASTS)
    if (tone !== 'error' && !options.sticky) setTimeout(() => this.dismiss(id), INFO_MS)
    return id
  }

  dismiss(id: number): void {
    this.items = this.items.filter((toast) => toast.id !== id)
  }
}

export const toasts = new ToastStore()
