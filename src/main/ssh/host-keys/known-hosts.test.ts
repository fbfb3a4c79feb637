import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  entryMatches,
  formatKnownHost,
  globMatch,
  hashHost,
  hostToken,
  keyTypeOfBlob,
  parseKnownHosts,
  recordedInstance,
  recordedKeyTypes,
  removeHost,
  sha256Fingerprint,
  verifyHostKey
} from './known-hosts'

// A real ed25519 public key blob (from ssh-keygen) and its fingerprint as `ssh-keygen -lf` prints it.
const ED25519 = 'AAAAC3NzaC1lZDI1NTE5AAAAIP5TgZ71jDfC5JuzrEoscm0NRmgoHz7T/e4ls3C5szf4'
const OTHER = 'AAAAC3NzaC1lZDI1NTE5AAAAIJdx0Qwr6zNe8PFAFcZbRSbmhW4tYXCWchqs4wcPnlIt'

describe('parseKnownHosts', () => {
  it('reads plain, bracketed, hashed, marked and commented lines, skipping junk', () => {
    const salt = Buffer.alloc(20, 7)
    const text = [
      '# comment',
      '',
      `example.com,192.0.2.1 ssh-ed25519 ${ED25519} me@laptop`,
      `[127.0.0.1]:2222 ssh-ed25519 ${ED25519}`,
      `${hashHost('hidden.example', 22, salt)} ssh-ed25519 ${OTHER}`,
      `@revoked bad.example ssh-ed25519 ${OTHER}`,
      `@cert-authority *.corp ssh-ed25519 ${OTHER}`,
      '@unknown-marker x ssh-ed25519 AAAA',
      'only-two fields',
      'host ssh-ed25519 not*base64'
    ].join('\n')
    const entries = parseKnownHosts(text)
    expect(entries.map((entry) => entry.line)).toEqual([3, 4, 5, 6, 7])
    expect(entries[0]).toMatchObject({
      keyType: 'ssh-ed25519',
      comment: 'me@laptop',
      hosts: { kind: 'patterns', patterns: ['example.com', '192.0.2.1'] }
    })
    expect(entries[2]?.hosts.kind).toBe('hashed')
    expect(entries[3]?.marker).toBe('revoked')
    expect(entries[4]?.marker).toBe('cert-authority')
  })

  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.string(), (text) => Array.isArray(parseKnownHosts(text))))
  })

  it('reads back what it writes, for any host and port', () => {
    const hostname = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,30}$/)
    fc.assert(
      fc.property(hostname, fc.integer({ min: 1, max: 65535 }), (host, port) => {
        const entries = parseKnownHosts(formatKnownHost(host, port, { keyType: 'ssh-ed25519', keyBase64: ED25519 }))
        expect(entries).toHaveLength(1)
        expect(entryMatches(entries[0]!, host, port)).toBe(true)
        expect(verifyHostKey(entries, host, port, { keyType: 'ssh-ed25519', keyBase64: ED25519 })).toEqual({ status: 'known' })
        // Another port of the same host is another host (unless it is 22 vs. bare).
        const otherPort = port === 65535 ? 1 : port + 1
        expect(entryMatches(entries[0]!, host, otherPort)).toBe(false)
      })
    )
  })
})

describe('host matching', () => {
  it('writes the port only when it is not 22', () => {
    expect(hostToken('h', 22)).toBe('h')
    expect(hostToken('h', 2222)).toBe('[h]:2222')
  })

  it.each([
    ['*.example.com', 'a.example.com', true],
    ['*.example.com', 'example.com', false],
    ['192.0.2.?', '192.0.2.7', true],
    ['192.0.2.?', '192.0.2.70', false],
    ['[h]:2*', '[h]:2222', true],
    ['*', '', true],
    ['a*b*c', 'aXXbYYc', true],
    ['a*b*c', 'aXXbYY', false]
  ])('glob %s vs %s → %s', (pattern, text, expected) => {
    expect(globMatch(pattern, text)).toBe(expected)
  })

  it('lets a negated pattern exclude a host a wildcard would match', () => {
    const [entry] = parseKnownHosts(`*.corp,!secret.corp ssh-ed25519 ${ED25519}`)
    expect(entryMatches(entry!, 'build.corp', 22)).toBe(true)
    expect(entryMatches(entry!, 'secret.corp', 22)).toBe(false)
  })

  it('matches hashed entries by HMAC-SHA1 of `[host]:port`', () => {
    const salt = randomBytes(20)
    const [entry] = parseKnownHosts(`${hashHost('127.0.0.1', 2222, salt)} ssh-ed25519 ${ED25519}`)
    expect(entryMatches(entry!, '127.0.0.1', 2222)).toBe(true)
    expect(entryMatches(entry!, '127.0.0.1', 22)).toBe(false)
  })
})

describe('verifyHostKey', () => {
  const entries = parseKnownHosts(
    [
      `[h]:2222 ssh-ed25519 ${ED25519}`,
      `[h]:2222 ecdsa-sha2-nistp256 AAAAE2VjZHNh`,
      `@revoked r ssh-ed25519 ${OTHER}`,
      `r ssh-ed25519 ${OTHER}`
    ].join('\n')
  )
  it('knows a recorded key', () => {
    expect(verifyHostKey(entries, 'h', 2222, { keyType: 'ssh-ed25519', keyBase64: ED25519 })).toEqual({ status: 'known' })
  })
  it('calls a different key of a recorded type a change', () => {
    const verdict = verifyHostKey(entries, 'h', 2222, { keyType: 'ssh-ed25519', keyBase64: OTHER })
    expect(verdict.status).toBe('changed')
    expect(verdict.status === 'changed' && verdict.previous.keyBase64).toBe(ED25519)
  })
  it('#12 item 5: calls a key of a type not on record a change when the host has other keys, as OpenSSH does', () => {
    const verdict = verifyHostKey(entries, 'h', 2222, { keyType: 'ssh-rsa', keyBase64: OTHER })
    expect(verdict.status).toBe('changed')
    // No recorded key of the new type: the warning shows the first key on record.
    expect(verdict.status === 'changed' && [verdict.previous.keyType, verdict.previous.keyBase64]).toEqual(['ssh-ed25519', ED25519])
  })
  it('accepts any matching key of a host with several types on record', () => {
    const several = parseKnownHosts([`[h]:2222 ssh-ed25519 ${OTHER}`, `[h]:2222 ssh-rsa ${ED25519}`].join('\n'))
    expect(verifyHostKey(several, 'h', 2222, { keyType: 'ssh-rsa', keyBase64: ED25519 })).toEqual({ status: 'known' })
    expect(recordedKeyTypes(several, 'h', 2222)).toEqual(['ssh-ed25519', 'ssh-rsa'])
    expect(recordedKeyTypes(several, 'h', 22)).toEqual([])
  })
  it('refuses a revoked key even when also listed as trusted', () => {
    expect(verifyHostKey(entries, 'r', 22, { keyType: 'ssh-ed25519', keyBase64: OTHER })).toEqual({ status: 'revoked' })
  })
  it('does not know an unlisted host', () => {
    expect(verifyHostKey(entries, 'nobody', 22, { keyType: 'ssh-ed25519', keyBase64: ED25519 })).toEqual({ status: 'unknown' })
  })
})

describe('the instance a remembered key belongs to', () => {
  const key = { keyType: 'ssh-ed25519', keyBase64: ED25519 }

  it('is written as a comment OpenSSH ignores, and read back', () => {
    const line = formatKnownHost('203.0.113.9', 30022, key, 'notebook-4f2a.b_c:1')
    expect(line).toBe(`[203.0.113.9]:30022 ssh-ed25519 ${ED25519} cloud-tray-instance=notebook-4f2a.b_c:1`)
    const [entry] = parseKnownHosts(line)
    expect(recordedInstance(entry!)).toBe('notebook-4f2a.b_c:1')
    expect(verifyHostKey([entry!], '203.0.113.9', 30022, key)).toEqual({ status: 'known' })
  })

  it.each([
    ['spaces and a marker', 'a @revoked *'],
    ['a line break', 'a\n[evil]:22 ssh-ed25519 AAAA'],
    ['a leading dash', '-oProxyCommand=x'],
    ['nothing', ''],
    ['an id too long', 'x'.repeat(129)]
  ])('is left out when the cloud’s id has %s', (_what, instanceId) => {
    const line = formatKnownHost('203.0.113.9', 30022, key, instanceId)
    expect(line).toBe(`[203.0.113.9]:30022 ssh-ed25519 ${ED25519}`)
    expect(recordedInstance(parseKnownHosts(line)[0]!)).toBeUndefined()
  })

  it('is not read from a comment someone else wrote', () => {
    const [entry] = parseKnownHosts(`[203.0.113.9]:30022 ssh-ed25519 ${ED25519} me@laptop cloud-tray-instance=x`)
    expect(recordedInstance(entry!)).toBeUndefined()
  })
})

describe('removeHost', () => {
  it('removes the host from plain and hashed lines and keeps everything else', () => {
    const salt = Buffer.alloc(20, 1)
    const text = [
      '# keep me',
      `[h]:2222 ssh-ed25519 ${ED25519}`,
      `[h]:2222,other ssh-ed25519 ${ED25519} note`,
      `${hashHost('h', 2222, salt)} ssh-ed25519 ${OTHER}`,
      `@revoked [h]:2222 ssh-ed25519 ${OTHER}`,
      `other ssh-ed25519 ${OTHER}`
    ].join('\n')
    const result = removeHost(text, 'h', 2222)
    expect(result.removed).toBe(3)
    expect(result.text.split('\n')).toEqual([
      '# keep me',
      `other ssh-ed25519 ${ED25519} note`,
      `@revoked [h]:2222 ssh-ed25519 ${OTHER}`,
      `other ssh-ed25519 ${OTHER}`
    ])
  })
})

describe('key blobs', () => {
  it('prints SHA256 fingerprints like ssh-keygen and reads the key type', () => {
    const blob = Buffer.from(ED25519, 'base64')
    expect(keyTypeOfBlob(blob)).toBe('ssh-ed25519')
    expect(sha256Fingerprint(blob)).toBe('SHA256:AP1q411BS3WuKAUp6KMs8/faQSeNopJGR16SIsKJRM0')
    expect(() => keyTypeOfBlob(Buffer.from([0, 0]))).toThrow()
  })
})
