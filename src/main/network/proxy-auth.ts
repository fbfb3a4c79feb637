/**
 * The user name and password a company proxy asks for (HTTP 407), kept by main alone.
 *
 * A 407 (from the API client, or a notebook window's `login` event) asks the window through the
 * `proxy.auth` event, unless credentials for that proxy are in the OS keychain from an earlier
 * run (read once, only then: the keychain is touched only when needed). What the user types is
 * checked with the proxy itself (a CONNECT to the address that was refused, `probe`) before it is
 * kept, so a wrong password is said at once, in the dialog, with what was typed still there.
 * Kept credentials live in memory for the run, and in the keychain (`proxy/<host:port>`) when the
 * user ticks "Remember"; the log redacts them. Each change bumps `revision()`, so every cloud
 * client rebuilds its pool with the new Proxy-Authorization on its next call: the poller's next
 * round and the user's retry get through without being told.
 */
import type { ProxyAuthState, ProxyQuestion, ProxySignInInput, ProxySignedIn } from '../../shared/contract-proxy'
import { KeychainUnavailableError } from '../account/keychain'
import { CloudError } from '../cloud/errors'
import type { CoreLog, EventSink, Keychain } from '../core-types'
import type { NetworkRoute } from './network-route'
import { proxyHostPort } from './proxy-rules'

export interface ProxyCredential {
  username: string
  password: string
}

/** Whether the proxy lets a tunnel to `target` through with this Proxy-Authorization. */
export type ProxyProbe = (proxyUri: string, target: string, token: string) => Promise<'accepted' | 'refused'>

export interface ProxyAuthOptions {
  keychain: Keychain
  emit: EventSink
  now: () => number
  probe: ProxyProbe
  log?: CoreLog | undefined
}

/** After Cancel, that proxy is not asked about again for this long (the poller would ask every round). */
export const QUIET_AFTER_CANCEL_MS = 10 * 60_000

export const proxyKeychainAccount = (hostPort: string): string => `proxy/${hostPort}`

export function basicToken(credential: ProxyCredential): string {
  return `Basic ${Buffer.from(`${credential.username}:${credential.password}`, 'utf8').toString('base64')}`
}

interface Asking {
  question: ProxyQuestion
  /** The proxy's URI and an address it refused to tunnel to: what a typed password is checked against. */
  uri: string
  target: string
}

export class ProxyAuth {
  private readonly given = new Map<string, ProxyCredential>()
  /** Proxies whose keychain entry was read this run (found or not), and those that had one. */
  private readonly looked = new Set<string>()
  private readonly inKeychain = new Set<string>()
  private readonly asking = new Map<string, Asking>()
  private readonly quietUntil = new Map<string, number>()
  /** The user name last given per proxy, even once refused: the dialog starts with it. */
  private readonly usernames = new Map<string, string>()
  private changes = 0

  constructor(private readonly options: ProxyAuthOptions) {}

  /** The shell's route, with these credentials given to each proxy and its 407s heard. */
  around(route: NetworkRoute): NetworkRoute {
    return {
      proxyFor: (url) => route.proxyFor(url),
      secureContext: () => route.secureContext(),
      proxyToken: (uri) => this.tokenFor(proxyHostPort(uri)),
      revision: () => this.changes,
      proxyRefused: (uri, target, sent) => this.refused(uri, target, sent)
    }
  }

  tokenFor(hostPort: string): string | undefined {
    const credential = this.given.get(hostPort)
    return credential ? basicToken(credential) : undefined
  }

  /** For a notebook window's `login` event: what this run was given for that proxy. */
  credentialFor(hostPort: string): ProxyCredential | undefined {
    return this.given.get(hostPort)
  }

  state(): ProxyAuthState {
    const first = this.asking.values().next()
    return { asking: first.done ? null : first.value.question }
  }

  /**
   * A proxy refused a tunnel to `target`, having been sent `sent` (a token, or none). Credentials
   * it refused are dropped and the user asked again; none yet: the keychain first, then the user.
   * True when there are credentials the refused call did not send (newer ones, or the
   * keychain's): it may try once more.
   */
  async refused(uri: string, target: string, sent: string | undefined): Promise<boolean> {
    const hostPort = proxyHostPort(uri)
    const current = this.tokenFor(hostPort)
    if (current !== undefined && current !== sent) return true
    if (current !== undefined) {
      this.given.delete(hostPort)
      this.changes += 1
      this.options.log?.info('proxy: refused the credentials given for it', { proxy: hostPort })
      this.ask(hostPort, uri, target, true)
      return false
    }
    if (!this.looked.has(hostPort) && (await this.fromKeychain(hostPort))) return true
    this.ask(hostPort, uri, target, sent !== undefined)
    return false
  }

  /** The window's answer: kept once the proxy lets it through; a refusal is said to the dialog. */
  async signIn(input: ProxySignInInput): Promise<ProxySignedIn> {
    const asking = this.asking.get(input.proxy)
    if (!asking) return this.state()
    const credential = { username: input.username, password: input.password }
    const token = basicToken(credential)
    this.options.log?.secrets.add(input.password)
    this.options.log?.secrets.add(token)
    this.usernames.set(input.proxy, input.username)
    let verdict: 'accepted' | 'refused'
    try {
      verdict = await this.options.probe(asking.uri, asking.target, token)
    } catch (error) {
      throw new CloudError(
        'network',
        `Could not reach the proxy "${input.proxy}" to check the user name and password (${error instanceof Error ? error.message : String(error)}). Check your network connection and try again.`,
        { cause: error }
      )
    }
    if (verdict === 'refused') {
      throw new CloudError(
        'bad-credentials',
        'The proxy did not accept that user name and password. Check them (they are often your company sign-in) and try again.',
        { field: 'password' }
      )
    }
    this.given.set(input.proxy, credential)
    this.changes += 1
    this.asking.delete(input.proxy)
    this.options.emit('proxy.auth', this.state())
    const keychainProblem = await this.keep(input.proxy, credential, input.remember)
    return { ...this.state(), ...(keychainProblem ? { keychainProblem } : {}) }
  }

  cancel(hostPort: string): ProxyAuthState {
    if (this.asking.delete(hostPort)) {
      this.quietUntil.set(hostPort, this.options.now() + QUIET_AFTER_CANCEL_MS)
      this.options.emit('proxy.auth', this.state())
    }
    return this.state()
  }

  private ask(hostPort: string, uri: string, target: string, rejected: boolean): void {
    if ((this.quietUntil.get(hostPort) ?? 0) > this.options.now()) return
    const already = this.asking.get(hostPort)
    // A question already shown stays as it is (a second 407 while the user types changes nothing).
    if (already && already.question.rejected === rejected) return
    const question: ProxyQuestion = { proxy: hostPort, username: this.usernames.get(hostPort) ?? '', rejected }
    this.asking.set(hostPort, { question, uri, target })
    this.options.emit('proxy.auth', this.state())
  }

  /** A remembered user name and password for this proxy, read once a run. */
  private async fromKeychain(hostPort: string): Promise<boolean> {
    this.looked.add(hostPort)
    let stored: string | null
    try {
      stored = await this.options.keychain.get(proxyKeychainAccount(hostPort))
    } catch (error) {
      this.options.log?.warn('proxy: could not read the keychain', { proxy: hostPort, error: String(error) })
      return false
    }
    const credential = parseStored(stored)
    if (!credential) return false
    this.inKeychain.add(hostPort)
    this.options.log?.secrets.add(credential.password)
    this.options.log?.secrets.add(basicToken(credential))
    this.usernames.set(hostPort, credential.username)
    // Given while the keychain was read: the user's own answer stands.
    if (this.given.has(hostPort)) return true
    this.given.set(hostPort, credential)
    this.changes += 1
    return true
  }

  /**
   * In the keychain when remembered; otherwise an entry from before is removed (the user unticked
   * it). Answers what went wrong there, in the user's words.
   */
  private async keep(hostPort: string, credential: ProxyCredential, remember: boolean): Promise<string | undefined> {
    const account = proxyKeychainAccount(hostPort)
    try {
      if (remember) {
        await this.options.keychain.set(account, JSON.stringify(credential))
        this.inKeychain.add(hostPort)
      } else if (this.inKeychain.has(hostPort)) {
        await this.options.keychain.delete(account)
        this.inKeychain.delete(hostPort)
      }
    } catch (error) {
      // Kept for this run all the same.
      this.options.log?.warn('proxy: could not update the keychain', { proxy: hostPort, error: String(error) })
      const why =
        error instanceof KeychainUnavailableError
          ? error.message
          : 'The system keychain refused them, so they are kept only until Cloud Tray quits.'
      return `Signed in to the proxy. ${why.replace('your sign-in is', 'the proxy user name and password are')}`
    }
    return undefined
  }
}

function parseStored(stored: string | null): ProxyCredential | undefined {
  if (!stored) return undefined
  try {
    const value: unknown = JSON.parse(stored)
    if (value && typeof value === 'object') {
      const { username, password } = value as Record<string, unknown>
      if (typeof username === 'string' && typeof password === 'string' && password !== '') return { username, password }
    }
  } catch {
    // Not ours, or damaged: as if absent.
  }
  return undefined
}
