/**
 * Menu labels as Electron shows them, and menus that are not swapped under the user's pointer.
 * Pure; tray-adapter.ts applies them.
 */

/**
 * On Windows and Linux a single `&` in a menu label marks the next letter as a mnemonic and is
 * not shown ("R&D run" shows as "RD run"); `&&` shows one `&`. macOS shows labels as they are.
 * Instance names come from the cloud and may hold `&`.
 */
export function menuLabel(label: string, platform: NodeJS.Platform): string {
  return platform === 'darwin' ? label : label.replace(/&/g, '&&')
}

/**
 * Holds a new menu back while the current one is open (macOS and Windows emit menu-will-show /
 * menu-will-close; Linux's tray menus do not, so there it is applied at once) and applies the
 * latest when it closes: the running instances' GPU lines change every minute, and replacing an
 * open menu closes it or leaves it stale under the pointer.
 */
export class MenuWhileOpen<T> {
  private open = false
  private pending: { menu: T } | undefined

  constructor(private readonly apply: (menu: T) => void) {}

  set(menu: T): void {
    if (this.open) this.pending = { menu }
    else this.apply(menu)
  }

  opened(): void {
    this.open = true
  }

  closed(): void {
    this.open = false
    const pending = this.pending
    this.pending = undefined
    if (pending) this.apply(pending.menu)
  }
}
