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
