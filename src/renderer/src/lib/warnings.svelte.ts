/** Lasting conditions main warns about (a settings file set aside, no keychain, …), shown as banners until dismissed. */
import type { Warning } from '../../../shared/contract'
import { call, on } from './bridge'

class WarningsStore {
  list = $state<Warning[]>([])

  listen(): () => void {
    return on('warning', (warning) => {
      this.list = [...this.list.filter((w) => w.id !== warning.id), warning]
    })
  }

  async load(): Promise<void> {
    const warnings = await call('warnings.get')
    if (warnings.ok) this.list = warnings.value
  }

  dismiss(id: string): void {
    this.list = this.list.filter((w) => w.id !== id)
  }
}

export const warnings = new WarningsStore()
