/**
 * Sessions (partitions) with a cookie jar, and page loads. A load of an http(s) page is a real
 * request, as Chromium would make it: over TLS the certificate is judged first — by the
 * partition's `setCertificateVerifyProc` when the app set one (0 trust, -2 refuse, -3 Chromium's
 * own verdict), else by Node's CA store and host-name check — and only then is the request sent,
 * carrying the jar's cookies for that address. So a notebook window shows what its cookie earns:
 * the notebook (200) or the emulator's sign-in page (401).
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { checkServerIdentity, connect as tlsConnect, type TLSSocket } from 'node:tls'
import { fileURLToPath } from 'node:url'
import type { CookieView } from '../protocol'
import { record, type Recordable } from './channel'
import { metaPolicies } from './page-policy'

/** A `protocol.handle` handler: a fetch Request in, a Response out (Electron 45). */
export type ProtocolHandler = (request: Request) => Response | Promise<Response>

/** What a page load gives the window: the HTTP status (http/https/custom schemes) and the CSPs the document carries. */
export interface LoadedPage {
  status?: number
  /** Every Content-Security-Policy the document is held to: response headers, then meta tags. */
  policies: string[]
}

type Cookie = Omit<CookieView, 'partition'>

type VerifyProc = (
  request: { hostname: string; certificate: { fingerprint: string; data: string }; verificationResult: string; errorCode: number },
  callback: (verdict: number) => void
) => void

class StandInCookies {
  private jar: Cookie[] = []
  constructor(private readonly owner: StandInSession) {}

  async set(details: {
    url: string
    name?: string
    value?: string
    domain?: string
    path?: string
    secure?: boolean
    httpOnly?: boolean
    expirationDate?: number
    sameSite?: string
  }): Promise<void> {
    record('session.cookies.set', this.owner.label, [details])
    const url = new URL(details.url)
    const cookie: Cookie = {
      name: details.name ?? '',
      value: details.value ?? '',
      domain: details.domain ?? url.hostname,
      hostOnly: details.domain === undefined,
      path: details.path ?? '/',
      secure: details.secure ?? false,
      httpOnly: details.httpOnly ?? false,
      session: details.expirationDate === undefined,
      sameSite: details.sameSite ?? 'unspecified'
    }
    this.jar = this.jar.filter((c) => !(c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path))
    this.jar.push(cookie)
  }

  async get(filter: { url?: string; name?: string; domain?: string } = {}): Promise<Cookie[]> {
    record('session.cookies.get', this.owner.label, [filter])
    return this.jar.filter(
      (c) =>
        (filter.name === undefined || c.name === filter.name) &&
        (filter.url === undefined || matches(c, new URL(filter.url))) &&
        (filter.domain === undefined || c.domain.replace(/^\./, '') === filter.domain.replace(/^\./, ''))
    )
  }

  async remove(url: string, name: string): Promise<void> {
    record('session.cookies.remove', this.owner.label, [url, name])
    const target = new URL(url)
    this.jar = this.jar.filter((c) => !(c.name === name && matches(c, target)))
  }

  async flushStore(): Promise<void> {
    record('session.cookies.flushStore', this.owner.label, [])
  }

  clear(): void {
    this.jar = []
  }

  /** The Cookie header Chromium would send for a top-level load of `url`. */
  headerFor(url: URL): string {
    return this.jar
      .filter((c) => matches(c, url))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ')
  }

  view(partition: string): CookieView[] {
    return this.jar.map((c) => ({ partition, ...c }))
  }
}

function matches(cookie: Cookie, url: URL): boolean {
  const host = url.hostname
  const domain = cookie.domain.replace(/^\./, '')
  const hostMatches = cookie.hostOnly ? host === domain : host === domain || host.endsWith(`.${domain}`)
  return hostMatches && url.pathname.startsWith(cookie.path) && (!cookie.secure || url.protocol === 'https:')
}

export class StandInSession implements Recordable {
  static readonly all = new Map<string, StandInSession>()
  static fromPartition(partition: string): StandInSession {
    record('session.fromPartition', undefined, [partition])
    return StandInSession.of(partition)
  }
  static of(partition: string): StandInSession {
    let existing = StandInSession.all.get(partition)
    if (!existing) {
      existing = new StandInSession(partition)
      StandInSession.all.set(partition, existing)
    }
    return existing
  }

  readonly cookies = new StandInCookies(this)
  readonly label: string
  permissionRequestHandler: ((...args: unknown[]) => void) | null = null
  permissionCheckHandler: ((...args: unknown[]) => boolean) | null = null
  private verifyProc: VerifyProc | null = null
  readonly protocolHandlers = new Map<string, ProtocolHandler>()
  /** `session.protocol` (Electron 45): the same handle/unhandle as the `protocol` module, for this session. */
  readonly protocol = {
    handle: (scheme: string, handler: ProtocolHandler): void => {
      record('session.protocol.handle', this.label, [scheme, handler])
      if (this.protocolHandlers.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`)
      this.protocolHandlers.set(scheme, handler)
    },
    unhandle: (scheme: string): void => {
      record('session.protocol.unhandle', this.label, [scheme])
      this.protocolHandlers.delete(scheme)
    },
    isProtocolHandled: (scheme: string): boolean => this.protocolHandlers.has(scheme)
  }
  readonly webRequest = {
    onHeadersReceived: (...args: unknown[]) => record('session.webRequest.onHeadersReceived', this.label, args)
  }

  private constructor(readonly partition: string) {
    this.label = `session:${partition || 'default'}`
  }

  recordAs(): unknown {
    return this.label
  }

  cookiesView(): CookieView[] {
    return this.cookies.view(this.partition)
  }

  setPermissionRequestHandler(handler: StandInSession['permissionRequestHandler']): void {
    record('session.setPermissionRequestHandler', this.label, [handler])
    this.permissionRequestHandler = handler
  }
  setPermissionCheckHandler(handler: StandInSession['permissionCheckHandler']): void {
    record('session.setPermissionCheckHandler', this.label, [handler])
    this.permissionCheckHandler = handler
  }
  setDevicePermissionHandler(handler: unknown): void {
    record('session.setDevicePermissionHandler', this.label, [handler])
  }
  setCertificateVerifyProc(proc: VerifyProc | null): void {
    record('session.setCertificateVerifyProc', this.label, [proc])
    this.verifyProc = proc
  }

  /**
   * Chromium's proxy for a URL, as a PAC-style answer. Modelled as Chromium on a Linux desktop
   * without GNOME/KDE proxy settings decides it (ProxyConfigServiceLinux: the environment's
   * `https_proxy`/`http_proxy`/`all_proxy` and `no_proxy`, loopback always direct).
   */
  async resolveProxy(url: string): Promise<string> {
    record('session.resolveProxy', this.label, [url])
    const target = new URL(url)
    const env = process.env
    const host = target.hostname.replace(/^\[|\]$/g, '')
    if (host === 'localhost' || host === '::1' || host.startsWith('127.')) return 'DIRECT'
    const noProxy = (env['no_proxy'] ?? env['NO_PROXY'] ?? '').split(/[\s,]+/).filter(Boolean)
    if (noProxy.some((entry) => entry === '*' || host === entry.replace(/^\./, '') || host.endsWith(`.${entry.replace(/^\./, '')}`)))
      return 'DIRECT'
    const scheme = target.protocol === 'https:' ? 'https_proxy' : 'http_proxy'
    const configured = env[scheme] ?? env[scheme.toUpperCase()] ?? env['all_proxy'] ?? env['ALL_PROXY']
    if (!configured) return 'DIRECT'
    const proxy = new URL(configured.includes('://') ? configured : `http://${configured}`)
    return `${proxy.protocol.startsWith('socks') ? 'SOCKS5' : proxy.protocol === 'https:' ? 'HTTPS' : 'PROXY'} ${proxy.host}`
  }

  async clearStorageData(options?: { origin?: string; storages?: string[] }): Promise<void> {
    record('session.clearStorageData', this.label, [options])
    if (!options?.storages || options.storages.includes('cookies')) this.cookies.clear()
  }
  async clearCache(): Promise<void> {
    record('session.clearCache', this.label, [])
  }
  async clearAuthCache(): Promise<void> {
    record('session.clearAuthCache', this.label, [])
  }

  /** Loads a page as a window would: its HTTP status (none for file/data pages) and the policies it carries. */
  async load(address: string): Promise<LoadedPage> {
    const url = new URL(address)
    if (url.protocol === 'data:' || url.protocol === 'about:') return { policies: [] }
    if (url.protocol === 'file:') {
      const path = fileURLToPath(url)
      if (!existsSync(path)) throw loadError('ERR_FILE_NOT_FOUND', -6, address)
      // A file: page has no response headers: only its meta tags hold it to a policy.
      return { policies: path.endsWith('.html') ? metaPolicies(readFileSync(path, 'utf8')) : [] }
    }
    const handler = this.protocolHandlers.get(url.protocol.slice(0, -1))
    if (handler) return this.loadFromHandler(handler, address)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw loadError('ERR_UNKNOWN_URL_SCHEME', -302, address)
    const headers: Record<string, string> = {}
    const cookie = this.cookies.headerFor(url)
    if (cookie) headers['Cookie'] = cookie
    // Over TLS the request goes on the socket verified above; with no `agent` Node uses it.
    const response =
      url.protocol === 'https:'
        ? await this.verified(url).then((socket) => send(httpsRequest(url, { headers, createConnection: () => socket })))
        : await send(httpRequest(url, { headers, agent: false }))
    response.resume()
    const csp = response.headers['content-security-policy']
    return { ...(response.statusCode !== undefined ? { status: response.statusCode } : {}), policies: csp ? [String(csp)] : [] }
  }

  /** A request answered by the app's `protocol.handle` handler, as Chromium would ask it. */
  async request(address: string, method = 'GET'): Promise<{ status: number; headers: Record<string, string>; body: Uint8Array }> {
    const handler = this.protocolHandlers.get(new URL(address).protocol.slice(0, -1))
    if (!handler) throw loadError('ERR_UNKNOWN_URL_SCHEME', -302, address)
    const response = await handler(new Request(address, { method }))
    return { status: response.status, headers: Object.fromEntries(response.headers), body: new Uint8Array(await response.arrayBuffer()) }
  }

  private async loadFromHandler(handler: ProtocolHandler, address: string): Promise<LoadedPage> {
    const response = await handler(new Request(address))
    if (response.status >= 400) throw loadError('ERR_FILE_NOT_FOUND', -6, address)
    const body = await response.text()
    const csp = response.headers.get('content-security-policy')
    const isHtml = (response.headers.get('content-type') ?? '').startsWith('text/html')
    return { status: response.status, policies: [...(csp ? [csp] : []), ...(isHtml ? metaPolicies(body) : [])] }
  }

  /** A TLS connection whose certificate passed the verify proc (or Chromium's own check). */
  private verified(url: URL): Promise<TLSSocket> {
    const host = url.hostname.replace(/^\[|\]$/g, '')
    return new Promise((resolve, reject) => {
      const socket = tlsConnect({
        host,
        port: Number(url.port || 443),
        ...(isIP(host) ? {} : { servername: host }),
        rejectUnauthorized: false
      })
      socket.once('error', (error) => reject(loadError('ERR_CONNECTION_REFUSED', -102, url.href, error)))
      socket.once('secureConnect', () => {
        const certificate = socket.getPeerCertificate()
        const hostnameError = checkServerIdentity(host, certificate)
        const chromium = socket.authorized ? (hostnameError ? -200 : 0) : -202
        const decide = (verdict: number): void => {
          const final = verdict === -3 ? chromium : verdict
          if (final === 0) return resolve(socket)
          socket.destroy()
          reject(
            final === -200
              ? loadError('ERR_CERT_COMMON_NAME_INVALID', -200, url.href)
              : loadError('ERR_CERT_AUTHORITY_INVALID', -202, url.href)
          )
        }
        if (!this.verifyProc) return decide(chromium)
        const fingerprint = `sha256/${createHash('sha256').update(certificate.raw).digest('base64')}`
        const pem = `-----BEGIN CERTIFICATE-----\n${certificate.raw.toString('base64')}\n-----END CERTIFICATE-----\n`
        this.verifyProc(
          {
            hostname: host,
            certificate: { fingerprint, data: pem },
            verificationResult: chromium === 0 ? 'net::OK' : 'net::ERR_CERT_AUTHORITY_INVALID',
            errorCode: chromium
          },
          decide
        )
      })
    })
  }
}

function send(request: ReturnType<typeof httpRequest>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request.once('response', resolve)
    request.once('error', (error) => reject(loadError('ERR_CONNECTION_REFUSED', -102, '', error)))
    request.end()
  })
}

/** The error Electron's loadURL rejects with: message `ERR_X (-n) loading 'url'`, and `code`, `errno`. */
export function loadError(code: string, errno: number, url: string, cause?: unknown): Error {
  return Object.assign(new Error(`${code} (${errno}) loading '${url}'`, cause === undefined ? undefined : { cause }), { code, errno, url })
}
