/** Lasting conditions main warns about (a settings file set aside, no keychain, …), shown as banners until dismissed. */
import type { Warning } from '../../../shared/contract'
import { call } from './bridge'
import { Mirror, MirroredStore } from './mirror.svelte'

class WarningsStore extends MirroredStore {
  // The event carries one warning, the read all of them.
  protected readonly mirror = new Mirror({
    event: 'warning',
    read: () => call('warnings.get'),
    initial: [] as Warning[],
    fromEvent: (warning, list) => {
      // A warning main takes back (the keychain answered after all) comes as `cleared`.
      const others = list.filter((w) => w.id !== warning.id)
      return warning.cleared ? others : [...others, warning]
    },
    // A warning that came while the list was out is kept beside the answer's.
    keepOvertaken: (answer, list) => [...answer.filter((w) => !list.some((shown) => shown.id === w.id)), ...list]
  })

  get list(): Warning[] {
    return this.mirror.value
  }

  dismiss(id: string): void {
    this.mirror.set(this.list.filter((w) => w.id !== id))
  }
}

export const warnings = new WarningsStore()
