/**
 * OpenSSH known_hosts, as pure functions: parse the text, match a host and port against an
 * entry (plain patterns with `*`, `?` and `!`, and hashed `|1|salt|hash` entries), decide what a
 * presented key means, and produce or remove lines. No I/O here (see known-hosts-store.ts).
 *
 * Format (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"):
 *   [@marker] hostpatterns keytype base64key [comment]
 * where a host on a non-standard port is written `[host]:port`.
 */
import { createHash, createHmac } from 'node:crypto'

export type HostMatcher = { kind: 'patterns'; patterns: string[] } | { kind: 'hashed'; salt: Buffer; hash: Buffer }

export interface KnownHostEntry {
  marker?: 'revoked' | 'cert-authority'
  hosts: HostMatcher
  keyType: string
  /** The key blob, base64 as written in the file. */
  keyBase64: string
  comment?: string
  /** 1-based line number in its file. */
  line: number
}

/** `host` for port 22, `[host]:port` otherwise, as OpenSSH writes and hashes it. */
export function hostToken(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`
}

/** Parses known_hosts text. Lines it cannot read are skipped, as OpenSSH does. */
export function parseKnownHosts(text: string): KnownHostEntry[] {
  const entries: KnownHostEntry[] = []
  const lines = text.split(/\r?\n/)
  for (let index = 0; index < lines.length; index++) {
    const entry = parseLine(lines[index] ?? '', index + 1)
    if (entry) entries.push(entry)
  }
  return entries
}

function parseLine(raw: string, line: number): KnownHostEntry | undefined {
  const text = raw.trim()
  if (text === '' || text.startsWith('#')) return undefined
  const fields = text.split(/[ \t]+/)
  let marker: KnownHostEntry['marker']
  if (fields[0]?.startsWith('@')) {
    const name = fields.shift()
    if (name === '@revoked') marker = 'revoked'
    else if (name === '@cert-authority') marker = 'cert-authority'
    else return undefined
  }
  const [hostField, keyType, keyBase64, ...rest] = fields
  if (!hostField || !keyType || !keyBase64) return undefined
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(keyBase64)) return undefined
  const hosts = parseHosts(hostField)
  if (!hosts) return undefined
  const entry: KnownHostEntry = { hosts, keyType, keyBase64, line }
  if (marker) entry.marker = marker
  if (rest.length > 0) entry.comment = rest.join(' ')
  return entry
}

function parseHosts(field: string): HostMatcher | undefined {
  if (field.startsWith('|1|')) {
    const [salt, hash] = field.slice(3).split('|')
    if (!salt || !hash) return undefined
    const saltBytes = Buffer.from(salt, 'base64')
    const hashBytes = Buffer.from(hash, 'base64')
    // HMAC-SHA1: a 20-byte salt (the key) and a 20-byte digest.
    if (saltBytes.length === 0 || hashBytes.length !== 20) return undefined
    return { kind: 'hashed', salt: saltBytes, hash: hashBytes }
  }
  const patterns = field.split(',').filter((pattern) => pattern !== '')
  return patterns.length > 0 ? { kind: 'patterns', patterns } : undefined
}

/** `|1|salt|hash` for a host, as `ssh-keygen -H` writes it (salt given for tests). */
export function hashHost(host: string, port: number, salt: Buffer): string {
  const digest = createHmac('sha1', salt).update(hostToken(host, port)).digest()
  return `|1|${salt.toString('base64')}|${digest.toString('base64')}`
}

/** Whether an entry names this host and port (a negated pattern that matches wins: no). */
export function entryMatches(entry: KnownHostEntry, host: string, port: number): boolean {
  const token = hostToken(host, port)
  if (entry.hosts.kind === 'hashed') {
    const digest = createHmac('sha1', entry.hosts.salt).update(token).digest()
    return digest.equals(entry.hosts.hash)
  }
  let matched = false
  for (const pattern of entry.hosts.patterns) {
    const negated = pattern.startsWith('!')
    const body = negated ? pattern.slice(1) : pattern
    if (!globMatch(body.toLowerCase(), token.toLowerCase())) continue
    if (negated) return false
    matched = true
  }
  return matched
}

/** OpenSSH's `*` and `?` wildcards; everything else literal. */
export function globMatch(pattern: string, text: string): boolean {
  // Iterative matcher with one backtrack point: linear-ish and no regex built from input.
  let p = 0
  let t = 0
  let star = -1
  let mark = 0
  while (t < text.length) {
    const pc = pattern[p]
    if (pc === '?' || (pc !== undefined && pc !== '*' && pc === text[t])) {
      p++
      t++
    } else if (pc === '*') {
      star = p++
      mark = t
    } else if (star !== -1) {
      p = star + 1
      t = ++mark
    } else {
      return false
    }
  }
  while (pattern[p] === '*') p++
  return p === pattern.length
}

export interface PresentedKey {
  keyType: string
  keyBase64: string
}

export type HostKeyVerdict =
  { status: 'known' } | { status: 'unknown' } | { status: 'changed'; previous: KnownHostEntry } | { status: 'revoked' }

/**
 * What a key presented by host:port means given the entries of one or more files, as OpenSSH
 * decides it (hostfile.c, check_hostkeys_by_key_or_type): a revoked key is refused; a key
 * equal to any recorded one is known; any other key, of the same type or not, is a change
 * when the host has keys on record (OpenSSH's "REMOTE HOST IDENTIFICATION HAS CHANGED" also
 * for a key of a new type); only a host with nothing on record is unknown. `previous` is the
 * recorded key of the same type if there is one, else the first recorded.
 */
export function verifyHostKey(entries: KnownHostEntry[], host: string, port: number, key: PresentedKey): HostKeyVerdict {
  const forHost = entries.filter((entry) => entry.marker !== 'cert-authority' && entryMatches(entry, host, port))
  if (forHost.some((entry) => entry.marker === 'revoked' && entry.keyBase64 === key.keyBase64)) return { status: 'revoked' }
  const plain = forHost.filter((entry) => entry.marker === undefined)
  if (plain.some((entry) => entry.keyType === key.keyType && entry.keyBase64 === key.keyBase64)) return { status: 'known' }
  const previous = plain.find((entry) => entry.keyType === key.keyType) ?? plain[0]
  if (previous) return { status: 'changed', previous }
  return { status: 'unknown' }
}

/** The key types on record for host:port, so the handshake can ask for those first as OpenSSH does. */
export function recordedKeyTypes(entries: KnownHostEntry[], host: string, port: number): string[] {
  const types = entries.filter((entry) => entry.marker === undefined && entryMatches(entry, host, port)).map((entry) => entry.keyType)
  return [...new Set(types)]
}

/**
 * The comment the app writes after a key it remembers: which instance answered with it. A cloud
 * gives a terminated instance's address (region host and node port) to a later one, so a
 * different key at that address from another instance is a new machine, not a changed one.
 * The id is the cloud's text: only a plain id is written (else no comment, and a new key there
 * is a change, as before).
 */
const INSTANCE_COMMENT = /^cloud-tray-instance=([A-Za-z0-9][A-Za-z0-9._:-]{0,127})$/

/** The line to append for a newly trusted key, naming the instance that presented it when its id is plain. */
export function formatKnownHost(host: string, port: number, key: PresentedKey, instanceId?: string): string {
  const line = `${hostToken(host, port)} ${key.keyType} ${key.keyBase64}`
  const comment = `cloud-tray-instance=${instanceId}`
  return instanceId !== undefined && INSTANCE_COMMENT.test(comment) ? `${line} ${comment}` : line
}

/** The instance the app recorded an entry for, if it did. */
export function recordedInstance(entry: KnownHostEntry): string | undefined {
  return entry.comment === undefined ? undefined : INSTANCE_COMMENT.exec(entry.comment)?.[1]
}

/**
 * Removes every plain entry for host:port (hashed entries that hash to it too), like
 * `ssh-keygen -R`. A line that lists several hosts keeps the other hosts.
 */
export function removeHost(text: string, host: string, port: number): { text: string; removed: number } {
  const token = hostToken(host, port).toLowerCase()
  let removed = 0
  const out: string[] = []
  const lines = text.split('\n')
  lines.forEach((raw, index) => {
    const entry = parseLine(raw.replace(/\r$/, ''), index + 1)
    if (!entry || entry.marker !== undefined || !entryMatches(entry, host, port)) {
      out.push(raw)
      return
    }
    removed++
    if (entry.hosts.kind === 'patterns') {
      const others = entry.hosts.patterns.filter((pattern) => pattern.toLowerCase() !== token)
      if (others.length > 0 && others.length < entry.hosts.patterns.length) {
        const rest = [entry.keyType, entry.keyBase64, ...(entry.comment ? [entry.comment] : [])]
        out.push([others.join(','), ...rest].join(' '))
      }
    }
  })
  return { text: out.join('\n'), removed }
}

/** `SHA256:<base64 without padding>`, as `ssh-keygen -lf` prints it. */
export function sha256Fingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`
}

/** The key type named inside an SSH public-key blob (its first length-prefixed string). */
export function keyTypeOfBlob(keyBlob: Buffer): string {
  if (keyBlob.length < 4) throw new Error('host key blob too short')
  const length = keyBlob.readUInt32BE(0)
  if (length === 0 || length > 64 || 4 + length > keyBlob.length) throw new Error('host key blob has no key type')
  const keyType = keyBlob.subarray(4, 4 + length).toString('latin1')
  // A key type is an algorithm's name ("ssh-ed25519"): printable ASCII, nothing a prompt or known_hosts line could be bent by.
  if (!/^[\x21-\x7e]+$/.test(keyType)) throw new Error('host key blob has no key type')
  return keyType
}
