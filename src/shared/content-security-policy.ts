/**
 * The renderer page's Content-Security-Policy, in one place. Electron serves the page from the
 * app:// scheme with this policy as a response header (windows/app-protocol.ts); the build writes
 * the same policy into the page's meta tag (electron.vite.config.ts), so a copy of the page
 * loaded any other way is held to it too. The web shell's build adds only its loopback socket.
 *
 * Inline styles are allowed because xterm and Svelte transitions set them; scripts only from our
 * origin; nothing may frame the page, and the page frames nothing.
 */

/** Which shell the page is built for: Electron (IPC only) or the web shell (a loopback WebSocket). */
export type PageShell = 'electron' | 'web'

export interface PolicyOptions {
  /** Extra `connect-src` sources (the web shell's socket, the dev server's HMR socket). */
  connect?: readonly string[]
}

export function contentSecurityPolicy(options: PolicyOptions = {}): string {
  const connect = ["'self'", ...(options.connect ?? [])].join(' ')
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "frame-src 'none'"
  ].join('; ')
}

/** The web shell's page talks to main over a WebSocket on loopback. */
export const WEB_SHELL_CONNECT = ['ws://127.0.0.1:*'] as const

/** The policy the built page carries for a shell. */
export function shellPolicy(shell: PageShell, extraConnect: readonly string[] = []): string {
  return contentSecurityPolicy({ connect: [...(shell === 'web' ? WEB_SHELL_CONNECT : []), ...extraConnect] })
}

/**
 * The same policy for a `<meta http-equiv>` tag: `frame-ancestors` is ignored there (browsers
 * warn), so it is left out; every other directive is the header's, word for word.
 */
export function metaPolicy(policy: string): string {
  return policy
    .split('; ')
    .filter((directive) => !directive.startsWith('frame-ancestors '))
    .join('; ')
}

/** A policy as directive → sources, for comparing two policies. */
export function parsePolicy(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>()
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources)
  }
  return directives
}
