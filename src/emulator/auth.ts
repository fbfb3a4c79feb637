/**
 * Accounts, login, token checks and console API keys (the `X-API-Key` header the real service
 * accepts on every call but login; kept here as SHA-256 hashes, as a server would). Tokens are RS256 JWTs signed with jose; verification is
 * done synchronously with node:crypto because reach (SSH auth, notebook requests) has to ask
 * "is this token good right now?" from synchronous callbacks. Expiry is judged in emulator
 * time, so `advance` can age a token past its `exp`.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  randomBytes,
  randomUUID,
  verify,
  type KeyObject
} from 'node:crypto'
import { promisify } from 'node:util'
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose'

export const TOKEN_ISSUER = 'https://hpc-ai.com'
export const TOKEN_AUDIENCE = 'hpc-ai-cloud'
export const TOKEN_GROUP = 'user'
export const MAX_LOGIN_ATTEMPTS = 5
/** A flood of made-up names must not grow the attempt table without bound. */
const MAX_TRACKED_NAMES = 10_000

export interface Account {
  username: string
  password: string
  /** Stable per user name: the JWT `sub`. */
  uuid: string
}

export type LoginOutcome =
  { ok: true; accessToken: string; accessExpire: number } | { ok: false; retriesLeft: number; lockedUntil?: number }

interface Attempts {
  failures: number
  lockedUntil?: number
}

/** A name-based (v5-style) uuid, so a user's `sub` survives restarts without being stored. */
export function userUuid(username: string): string {
  const hash = createHash('sha1').update('cloud-tray-emulator-user:').update(username).digest()
  hash[6] = (hash[6]! & 0x0f) | 0x50
  hash[8] = (hash[8]! & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** An API key's stored form: its SHA-256, hex. */
export function apiKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

/** What a key may look like: printable ASCII without spaces, as an HTTP header value must be. */
export const API_KEY_PATTERN = /^[\x21-\x7e]{8,256}$/

export async function generateSigningKeyPem(): Promise<string> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 })
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
}

export class Auth {
  private readonly accounts = new Map<string, Account>()
  private readonly bySub = new Map<string, Account>()
  private readonly attempts = new Map<string, Attempts>()
  /** jti → user name of every token issued in this run, for expireTokens. */
  private readonly issued = new Map<string, string>()
  private readonly revoked = new Set<string>()
  /** Per user ('' = everyone): tokens issued in an earlier second than this are refused. */
  private readonly notBeforeSeconds = new Map<string, number>()
  /** API key hash → user name. */
  private readonly apiKeys = new Map<string, string>()
  private readonly privateKey: KeyObject
  private readonly publicKey: KeyObject

  constructor(
    /** Kept so --state can persist it: tokens stay valid across a restart, as on the real service. */
    readonly signingKeyPem: string,
    users: { username: string; password: string }[],
    private readonly options: { now: () => number; tokenTtlSeconds: number; lockoutMs: number }
  ) {
    this.privateKey = createPrivateKey(signingKeyPem)
    this.publicKey = createPublicKey(this.privateKey)
    for (const user of users) this.addUser(user.username, user.password)
  }

  addUser(username: string, password: string): void {
    if (username === '' || password === '') throw new RangeError('every emulator user needs a non-empty name and password')
    if (this.accounts.has(username)) throw new RangeError(`user "${username}" is listed twice`)
    const account = { username, password, uuid: userUuid(username) }
    this.accounts.set(username, account)
    this.bySub.set(account.uuid, account)
  }

  hasUser(username: string): boolean {
    return this.accounts.has(username)
  }

  usernames(): string[] {
    return [...this.accounts.keys()]
  }

  async login(username: string, password: string): Promise<LoginOutcome> {
    const now = this.options.now()
    const attempts = this.attempts.get(username) ?? { failures: 0 }
    if (attempts.lockedUntil !== undefined) {
      if (now < attempts.lockedUntil) return { ok: false, retriesLeft: 0, lockedUntil: attempts.lockedUntil }
      attempts.failures = 0
      attempts.lockedUntil = undefined
    }
    const account = this.accounts.get(username)
    if (!account || account.password !== password) {
      // Unknown names count down too, so the answer does not reveal which names exist.
      attempts.failures += 1
      const retriesLeft = Math.max(0, MAX_LOGIN_ATTEMPTS - attempts.failures)
      if (retriesLeft === 0) attempts.lockedUntil = now + this.options.lockoutMs
      if (!this.attempts.has(username) && this.attempts.size >= MAX_TRACKED_NAMES) this.forgetUnlocked(now)
      this.attempts.set(username, attempts)
      return attempts.lockedUntil !== undefined ? { ok: false, retriesLeft, lockedUntil: attempts.lockedUntil } : { ok: false, retriesLeft }
    }
    this.attempts.delete(username)
    return { ok: true, ...(await this.issue(account, now)) }
  }

  private async issue(account: Account, now: number): Promise<{ accessToken: string; accessExpire: number }> {
    const iat = Math.floor(now / 1000)
    const ttl = this.options.tokenTtlSeconds
    const jti = randomUUID()
    const accessToken = await new SignJWT({ group: TOKEN_GROUP })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(account.uuid)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttl)
      .setJti(jti)
      .sign(this.privateKey)
    this.issued.set(jti, account.username)
    return { accessToken, accessExpire: ttl }
  }

  /** The token's user when it is well signed, ours, unexpired in emulator time and not revoked. */
  verify(token: string): { username: string } | undefined {
    const parts = token.split('.')
    if (parts.length !== 3 || token.length > 8192) return undefined
    try {
      if (decodeProtectedHeader(token).alg !== 'RS256') return undefined
      const signature = Buffer.from(parts[2]!, 'base64url')
      const ok = verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), this.publicKey, signature)
      if (!ok) return undefined
      const claims = decodeJwt(token)
      if (claims.iss !== TOKEN_ISSUER || claims.aud !== TOKEN_AUDIENCE) return undefined
      if (typeof claims.exp !== 'number' || claims.exp * 1000 <= this.options.now()) return undefined
      if (typeof claims.jti === 'string' && this.revoked.has(claims.jti)) return undefined
      const account = typeof claims.sub === 'string' ? this.bySub.get(claims.sub) : undefined
      if (!account) return undefined
      const iat = typeof claims.iat === 'number' ? claims.iat : 0
      const cutoff = Math.max(this.notBeforeSeconds.get('') ?? 0, this.notBeforeSeconds.get(account.username) ?? 0)
      if (iat < cutoff) return undefined
      return { username: account.username }
    } catch {
      return undefined
    }
  }

  /** Every token issued so far (to that user) is refused from now on; later logins work. */
  expireTokens(username?: string): number {
    // Tokens from this run are revoked by id (exact even within one second); tokens signed
    // before a restart (same persisted key) are caught by the issued-at cutoff.
    this.notBeforeSeconds.set(username ?? '', Math.floor(this.options.now() / 1000))
    let count = 0
    for (const [jti, owner] of this.issued) {
      if (username !== undefined && owner !== username) continue
      this.revoked.add(jti)
      this.issued.delete(jti)
      count++
    }
    return count
  }

  /** Drops countdowns that hold no lock, so live lockouts survive a flood of made-up names. */
  private forgetUnlocked(now: number): void {
    for (const [name, entry] of this.attempts) if (entry.lockedUntil === undefined || entry.lockedUntil <= now) this.attempts.delete(name)
  }

  /** Makes a new console API key for the user (control surface: the real console's "Create API key"). */
  createApiKey(username: string): string {
    const key = `ct_${randomBytes(24).toString('base64url')}`
    this.addApiKey(username, key)
    return key
  }

  /** Accepts a key chosen by the caller (`--api-key USER:KEY`). */
  addApiKey(username: string, key: string): void {
    if (!this.accounts.has(username)) throw new RangeError(`no user "${username}" exists to own an API key`)
    if (!API_KEY_PATTERN.test(key)) throw new RangeError('an API key is 8–256 printable characters without spaces')
    this.apiKeys.set(apiKeyHash(key), username)
  }

  /** The key's user, when the key is one of ours and not revoked. */
  verifyApiKey(key: string): { username: string } | undefined {
    if (!API_KEY_PATTERN.test(key)) return undefined
    const username = this.apiKeys.get(apiKeyHash(key))
    return username !== undefined && this.accounts.has(username) ? { username } : undefined
  }

  /** Every key (of that user) is refused from now on; returns how many. */
  revokeApiKeys(username?: string): number {
    let count = 0
    for (const [hash, owner] of this.apiKeys) {
      if (username !== undefined && owner !== username) continue
      this.apiKeys.delete(hash)
      count++
    }
    return count
  }

  /** Key hashes and their users, for the state file. */
  apiKeyHashes(): Record<string, string> {
    return Object.fromEntries(this.apiKeys)
  }

  restoreApiKeyHashes(hashes: Record<string, string>): void {
    for (const [hash, owner] of Object.entries(hashes)) if (/^[0-9a-f]{64}$/.test(hash)) this.apiKeys.set(hash, owner)
  }

  /** Ends a lockout and resets the countdown (control surface). */
  unlock(username: string): void {
    this.attempts.delete(username)
  }
}
