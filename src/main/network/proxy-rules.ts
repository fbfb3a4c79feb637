/**
 * Which proxy a request to the cloud goes through, the way a browser decides it. Pure.
 *
 * - In Electron, Chromium answers (`session.resolveProxy`: system settings, PAC, WPAD) with a
 *   PAC-style list such as `PROXY proxy.corp:8080; DIRECT`; `firstUsableProxy` turns it into
 *   the address undici's ProxyAgent takes.
 * - In the web shell and plain Node, the environment answers: `HTTPS_PROXY` / `HTTP_PROXY` (and
 *   `ALL_PROXY`), lower case first as curl reads them, with `NO_PROXY`'s exceptions.
 *
 * Loopback always goes direct (Chromium's implicit `<-loopback>` rule): the Sandbox and a local
 * emulator are never sent through a proxy.
 */
import { isIP } from 'node:net'

/** A proxy address (`http://host:port`, `https://…`, `socks5://…`) or `direct`. */
export type ProxyChoice = { kind: 'direct' } | { kind: 'proxy'; uri: string }

const DIRECT: ProxyChoice = { kind: 'direct' }

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'))
}

/**
 * The first entry of a PAC result undici can use. `PROXY h:p` and `HTTPS h:p` are HTTP(S)
 * proxies, `SOCKS5 h:p` a SOCKS5 one; `SOCKS`/`SOCKS4` (no SOCKS4 in undici) and `QUIC` are
 * skipped for the next; `DIRECT` or nothing usable is direct.
 */
export function firstUsableProxy(pac: string): ProxyChoice {
  for (const entry of pac.split(';')) {
    const [kind = '', address = ''] = entry.trim().split(/\s+/)
    if (!address && kind.toUpperCase() === 'DIRECT') return DIRECT
    if (!/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/.test(address)) continue
    switch (kind.toUpperCase()) {
      case 'PROXY':
        return { kind: 'proxy', uri: `http://${address}` }
      case 'HTTPS':
        return { kind: 'proxy', uri: `https://${address}` }
      case 'SOCKS5':
        return { kind: 'proxy', uri: `socks5://${address}` }
    }
  }
  return DIRECT
}

/** `host:port` of a proxy URI, for messages: never its user name or password. */
export function proxyHostPort(uri: string): string {
  try {
    const url = new URL(uri)
    return url.port ? url.host : `${url.host}:${url.protocol === 'https:' ? 443 : 80}`
  } catch {
    return 'the configured proxy'
  }
}

/** The proxy URI carries its own user name (and password): the environment's `http://user:pass@host:port`. */
export function hasUserInfo(uri: string): boolean {
  try {
    return new URL(uri).username !== ''
  } catch {
    return false
  }
}

const read = (env: NodeJS.ProcessEnv, name: string): string | undefined => env[name.toLowerCase()] || env[name.toUpperCase()] || undefined

/** The environment's proxy for `url` (curl's rules: `https_proxy`/`http_proxy`, then `all_proxy`; `no_proxy`). */
export function environmentProxy(url: string, env: NodeJS.ProcessEnv): ProxyChoice {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return DIRECT
  }
  if (isLoopback(target.hostname) || bypassed(target, read(env, 'no_proxy') ?? '')) return DIRECT
  const configured = (target.protocol === 'https:' ? read(env, 'https_proxy') : read(env, 'http_proxy')) ?? read(env, 'all_proxy')
  if (!configured) return DIRECT
  // A bare host:port means http://host:port, as curl reads it.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(configured) ? configured : `http://${configured}`
  try {
    const proxy = new URL(withScheme)
    if (!['http:', 'https:', 'socks5:', 'socks5h:'].includes(proxy.protocol)) return DIRECT
    if (proxy.protocol === 'socks5h:') proxy.protocol = 'socks5:'
    return { kind: 'proxy', uri: proxy.href.replace(/\/$/, '') }
  } catch {
    return DIRECT
  }
}

/**
 * `NO_PROXY`: comma- or space-separated; `*` bypasses everything; `example.com` and
 * `.example.com` match the host and its subdomains; `host:port` only that port; an IP literal
 * only itself.
 */
export function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const port = target.port || (target.protocol === 'https:' ? '443' : '80')
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase()
    if (!entry) continue
    if (entry === '*') return true
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry)
    if (!match) continue
    const name = match[1]!.replace(/^\[|\]$/g, '').replace(/^\*?\./, '')
    if (match[2] && match[2] !== port) continue
    // An address matches only itself; a name also its subdomains.
    if (host === name || (!isIP(host) && !isIP(name) && host.endsWith(`.${name}`))) return true
  }
  return false
}
