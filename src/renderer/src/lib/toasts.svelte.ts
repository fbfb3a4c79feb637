/**
 * Toasts: short messages for what a person waits for and for errors. Errors, and warnings that ask
 * the user to act, stay until dismissed; the rest go after a few seconds.
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

  /**
   * `sticky`: stays until dismissed, like an error (it asks the user to do something). A toast
   * with `actions` (choices) is sticky too: it stays until acted on or dismissed.
   */
  show(tone: ToastTone, title: string, body?: string, options: { sticky?: boolean; actions?: ToastAction[] } = {}): number {
    const id = this.nextId++
    const actions = options.actions ?? []
    // The same words again (three refused clicks, one full disk) move to the newest place rather
    // than stack up and push other messages out. A toast with choices is about its own thing.
    const kept = actions.length > 0 ? this.items : this.items.filter((toast) => !sameWords(toast, tone, title, body))
    this.items = [...kept, { id, tone, title, ...(body ? { body } : {}), ...(actions.length > 0 ? { actions } : {}) }].slice(-MAX_TOASTS)
    if (tone !== 'error' && !options.sticky && actions.length === 0) setTimeout(() => this.dismiss(id), INFO_MS)
    return id
  }

  dismiss(id: number): void {
    this.items = this.items.filter((toast) => toast.id !== id)
  }
}

function sameWords(toast: Toast, tone: ToastTone, title: string, body: string | undefined): boolean {
  return toast.actions === undefined && toast.tone === tone && toast.title === title && (toast.body ?? '') === (body ?? '')
}

export const toasts = new ToastStore()
