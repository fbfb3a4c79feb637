/**
 * What a page may fetch, as Chromium inside Electron 45 decides it, for the one case the stand-in
 * models: a page's `fetch()` of another URL. First the page's Content-Security-Policy (every policy
 * it carries — header and meta tag — must allow the address under `connect-src`, else
 * `default-src`); then the scheme: `file:` is fetchable only from a `file:` page, and only while
 * the `GrantFileProtocolExtraPrivileges` fuse is on (Electron's fuses doc: with it, "file://
 * protocol pages can use fetch to load other assets over file://"); a custom scheme is fetchable
 * only when registered with `supportFetchAPI`.
 */

export type FetchVerdict = { ok: true } | { ok: false; refusedBy: 'csp' | 'scheme'; message: string }

/** The meta-tag policies in an HTML document. */
export function metaPolicies(html: string): string[] {
  const found: string[] = []
  for (const match of html.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = match[0]
    if (!/http-equiv\s*=\s*["']?content-security-policy/i.test(tag)) continue
    const content = /content\s*=\s*"([^"]*)"|content\s*=\s*'([^']*)'/i.exec(tag)
    const value = content?.[1] ?? content?.[2]
    if (value) found.push(value)
  }
  return found
}

function sourcesFor(policy: string, directive: string): string[] | undefined {
  const directives = new Map<string, string[]>()
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources)
  }
  return directives.get(directive) ?? directives.get('default-src')
}

function sourceMatches(source: string, page: URL, target: URL): boolean {
  const lower = source.toLowerCase()
  if (lower === "'none'") return false
  if (lower === "'self'") {
    // A file: document's 'self' matches file: URLs (its origin has no host to compare).
    if (page.protocol === 'file:') return target.protocol === 'file:'
    return target.protocol === page.protocol && target.host === page.host
  }
  if (lower === '*') return target.protocol === 'http:' || target.protocol === 'https:' || target.protocol === page.protocol
  if (/^[a-z][a-z0-9+.-]*:$/.test(lower)) return target.protocol === lower
  const host = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/:]+)(?::(\d+|\*))?/.exec(lower)
  if (!host) return false
  const [, scheme, name, port] = host
  if (scheme && `${scheme}:` !== target.protocol) return false
  const targetHost = target.hostname.toLowerCase()
  const hostOk = name!.startsWith('*.') ? targetHost.endsWith(name!.slice(1)) : targetHost === name
  const portOk = port === '*' || (port ? target.port === port : true)
  return hostOk && portOk
}

export function policyAllowsConnect(policy: string, page: URL, target: URL): boolean {
  const sources = sourcesFor(policy, 'connect-src')
  if (!sources) return true
  return sources.some((source) => sourceMatches(source, page, target))
}

export function fetchVerdict(input: {
  page: URL
  target: URL
  policies: readonly string[]
  fileExtraPrivileges: boolean
  fetchableSchemes: ReadonlySet<string>
}): FetchVerdict {
  const { page, target } = input
  for (const policy of input.policies) {
    if (!policyAllowsConnect(policy, page, target)) {
      return {
        ok: false,
        refusedBy: 'csp',
        message: `Refused to connect to '${target.href}' because it violates the following Content Security Policy directive: "connect-src"`
      }
    }
  }
  const scheme = target.protocol.slice(0, -1)
  if (scheme === 'file') {
    if (page.protocol === 'file:' && input.fileExtraPrivileges) return { ok: true }
    return { ok: false, refusedBy: 'scheme', message: `Fetch API cannot load ${target.href}. URL scheme "file" is not supported.` }
  }
  if (scheme === 'http' || scheme === 'https' || input.fetchableSchemes.has(scheme)) return { ok: true }
  return { ok: false, refusedBy: 'scheme', message: `Fetch API cannot load ${target.href}. URL scheme "${scheme}" is not supported.` }
}
