/**
 * Where a notebook window may go. It shows one origin (the notebook's); a link elsewhere opens
 * in the system browser, where the user's own browser protections apply; anything that is not
 * plain web (file:, javascript:, data:, custom app schemes) is refused, since handing it to the
 * OS could launch another program.
 */
export type NavigationDecision = 'allow' | 'external' | 'deny'

export function notebookNavigation(fromOrigin: string, targetUrl: string): NavigationDecision {
  let target: URL
  let from: URL
  try {
    target = new URL(targetUrl)
    from = new URL(fromOrigin)
  } catch {
    return 'deny'
  }
  // Blank frames inherit the page's own origin (notebooks use them); they cannot leave it.
  if (targetUrl === 'about:blank' || targetUrl === 'about:srcdoc') return 'allow'
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return 'deny'
  if (target.hostname === '') return 'deny'
  // Compare origins, never prefixes: https://notebook.example.com.attacker.net is not ours.
  if (target.origin === from.origin) return 'allow'
  // `https://user:pass@host` hides the real host from a quick look: never forwarded.
  if (target.username !== '' || target.password !== '') return 'deny'
  return 'external'
}

/**
 * What a notebook page may do beyond showing itself: write the clipboard (JupyterLab's copy
 * buttons) and go fullscreen (its presentation mode), from the notebook's own origin in the
 * window's main frame. Everything else (camera, location, notifications, reading the clipboard,
 * devices) is denied, as is any of it from another origin or a sub-frame.
 */
const NOTEBOOK_MAY = new Set(['clipboard-sanitized-write', 'fullscreen'])

export function notebookPermission(permission: string, requestingUrl: string | undefined, pageUrl: string, isMainFrame: boolean): boolean {
  if (!NOTEBOOK_MAY.has(permission) || !isMainFrame || !requestingUrl) return false
  try {
    const requesting = new URL(requestingUrl)
    const page = new URL(pageUrl)
    return (requesting.protocol === 'https:' || requesting.protocol === 'http:') && requesting.origin === page.origin
  } catch {
    return false
  }
}
