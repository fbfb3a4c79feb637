/**
 * Redaction: the last step before anything reaches the log file. The log is the one artefact a
 * user attaches to a bug report, so it must never carry the access token, a password or an SSH
 * passphrase, however they arrive: as a field, inside a nested object, inside an error's message
 * or cause, or quoted in a server's reply.
 *
 * Three layers, because each catches what the others miss:
 *   1. known secrets: the exact token/password strings the app holds right now (SecretSet);
 *   2. shapes: JWTs, `AccessToken=` cookies, `Bearer` headers, PEM private keys, `password=...`;
 *   3. names: any object field called token, password, passphrase, secret, cookie, authorization, ….
 */

export const REDACTED = '[redacted]'

/** Secrets shorter than this are not real tokens or passwords worth scrubbing by value (and
 *  scrubbing "a" would shred every line). Short passwords are still caught by name and shape. */
const MIN_SECRET_LENGTH = 4

/** Field names whose values are never logged, matched case-insensitively anywhere in the name
 *  (accessToken, refresh_token, sshPassphrase, Set-Cookie, privateKey, ...). */
const SECRET_KEY = /token|passw|passphrase|secret|authorization|cookie|private.?key|api.?key|credential|^jwt$/i

const keepQuotes = (_match: string, key: string, value: string): string => {
  const quote = value.startsWith('"') || value.startsWith("'") ? value[0] : ''
  return `${key}${quote}${REDACTED}${quote}`
}

const TEXT_RULES: [RegExp, string | ((match: string, ...groups: string[]) => string)][] = [
  // A JWT: three base64url segments, the header always starting {" (eyJ). The signature may be empty.
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // The session cookie as a header or a cookie string, quoted or not.
  [/(AccessToken\s*=\s*)("?)[^;,\s"]+\2/gi, `$1${REDACTED}`],
  // HTTP auth headers.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/g, `$1 ${REDACTED}`],
  // PEM private keys (SSH keys, the emulator's TLS key), even across lines.
  [/-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g, `[redacted private key]`],
  // key=value / key: value / "key":"value" for secret-named keys inside free text.
  [/((?:["']?)[\w-]*(?:token|passw\w*|passphrase|secret)[\w-]*["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;&}\]]+)/gi, keepQuotes]
]

/** The exact secret values the app holds now; their every occurrence is scrubbed. */
export class SecretSet {
  private readonly values = new Set<string>()

  add(secret: string | undefined | null): void {
    if (secret && secret.length >= MIN_SECRET_LENGTH) this.values.add(secret)
  }

  delete(secret: string | undefined | null): void {
    if (secret) this.values.delete(secret)
  }

  /** Longest first, so a secret that contains another is removed whole. */
  list(): string[] {
    return [...this.values].sort((a, b) => b.length - a.length)
  }
}

/** `text` with every occurrence of `secret` replaced by REDACTED: the log's first layer, and the cloud client's (cloud/redact.ts). */
export function withoutSecret(text: string, secret: string): string {
  return text.split(secret).join(REDACTED)
}

export function redactText(text: string, secrets?: SecretSet): string {
  let out = text
  for (const secret of secrets?.list() ?? []) out = withoutSecret(out, secret)
  for (const [pattern, replacement] of TEXT_RULES) {
    out = typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement)
  }
  return out
}

const MAX_DEPTH = 8
const MAX_KEYS = 200

/**
 * A JSON-safe copy of `value` with every secret removed. Errors become {name, message, code,
 * stack, cause}; cycles, functions and over-deep nesting become markers instead of throwing.
 */
export function redactValue(value: unknown, secrets?: SecretSet): unknown {
  const seen = new WeakSet<object>()

  const walk = (input: unknown, depth: number): unknown => {
    if (typeof input === 'string') return redactText(input, secrets)
    if (input === null || typeof input === 'number' || typeof input === 'boolean') return input
    if (input === undefined) return undefined
    if (typeof input === 'bigint') return input.toString()
    if (typeof input === 'function' || typeof input === 'symbol') return `[${typeof input}]`
    if (typeof input !== 'object') return String(input)
    if (seen.has(input)) return '[circular]'
    if (depth >= MAX_DEPTH) return '[nested too deep]'
    seen.add(input)

    if (input instanceof Error) {
      const error = input as Error & { code?: unknown }
      const out: Record<string, unknown> = { name: error.name, message: walk(error.message, depth + 1) }
      if (error.code !== undefined) out['code'] = walk(error.code, depth + 1)
      if (error.stack) out['stack'] = walk(error.stack, depth + 1)
      if (error.cause !== undefined) out['cause'] = walk(error.cause, depth + 1)
      for (const [key, field] of Object.entries(error)) {
        if (key in out) continue
        out[key] = SECRET_KEY.test(key) ? REDACTED : walk(field, depth + 1)
      }
      return out
    }
    if (input instanceof Date) return input.toISOString()
    if (Buffer.isBuffer(input) || ArrayBuffer.isView(input)) return `[${input.byteLength} bytes]`
    if (input instanceof Map) return walk(Object.fromEntries(input), depth)
    if (input instanceof Set) return walk([...input], depth)
    if (Array.isArray(input)) return input.slice(0, MAX_KEYS).map((item) => walk(item, depth + 1))

    const out: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(input).slice(0, MAX_KEYS)) {
      // A flag such as `hasToken: true` says nothing secret; any other value under a secret name goes.
      const hide = SECRET_KEY.test(key) && field !== null && field !== undefined && field !== '' && typeof field !== 'boolean'
      out[key] = hide ? REDACTED : walk(field, depth + 1)
    }
    return out
  }

  return walk(value, 0)
}
