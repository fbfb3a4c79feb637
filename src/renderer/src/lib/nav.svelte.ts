/** Which view is showing. Main can move it too (tray item, notification click): `navigate` event. */
import type { NavigateTarget } from '../../../shared/contract'

class Navigation {
  current = $state<NavigateTarget>({ view: 'instances' })

  go(target: NavigateTarget): void {
    this.current = target
  }
}

export const nav = new Navigation()
