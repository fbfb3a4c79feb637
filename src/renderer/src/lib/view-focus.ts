/**
 * Where the keyboard lands after a view change (a sidebar link, Ctrl+N, the tray, a sign-in):
 * on the new view's first field when it marks one (`data-view-focus`), else on its heading, so
 * the next Tab starts inside the view and a screen reader says where the user is. A view that
 * already took the focus itself (the terminal) keeps it.
 */
export const VIEW_FOCUS_ATTRIBUTE = 'data-view-focus'

/** Moves focus into `route`'s view; `force` even when something in it has focus (the skip link). */
export function focusView(route: HTMLElement, force = false): void {
  const active = document.activeElement
  if (!force && active && active !== route && route.contains(active)) return
  const target = route.querySelector<HTMLElement>(`[${VIEW_FOCUS_ATTRIBUTE}]`) ?? route.querySelector<HTMLElement>('h1')
  if (!target) return
  // A heading is not focusable by itself; -1 lets a script (not Tab) put the focus there.
  if (!target.matches('input, select, textarea, button, a[href], [tabindex]')) target.tabIndex = -1
  target.focus()
}
