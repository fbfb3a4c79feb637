import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { REDACTED, redactText, redactValue, SecretSet } from './redact'

// A real HS256 JWT shape (header {"alg":"HS256","typ":"JWT"}).
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkZW1vIiwiZXhwIjoxNzkwMDAwMDAwfQ.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtMTIzNDU2Nzg5MA'

describe('redactText', () => {
  it.each([
    ['a JWT anywhere in text', `login ok, token ${JWT} stored`, JWT],
    ['an AccessToken cookie', 'Cookie: AccessToken=opaque-session-value; Path=/', 'opaque-session-value'],
    ['a quoted AccessToken cookie', 'set-cookie AccessToken="q-value-123"; HttpOnly', 'q-value-123'],
    ['a Bearer header', 'Authorization: Bearer abcdef0123456789', 'abcdef0123456789'],
    ['password=… in a URL or form', 'POST /login body user=demo&password=hunter22&x=1', 'hunter22'],
    ['"password":"…" in JSON text', '{"userName":"demo","password":"s3cret pass"}', 's3cret pass'],
    ['passphrase: … in prose', 'key decrypt failed, passphrase: correct-horse', 'correct-horse'],
    [
      'a PEM private key',
      'key\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\nend',
      'b3BlbnNzaC1rZXktdjEAAAAA'
    ]
  ])('removes %s', (_name, text, secret) => {
    const out = redactText(text)
    expect(out).not.toContain(secret)
    expect(out).toMatch(/redacted/)
  })

  it.each(['poll ok: 12 instances in 140 ms', 'instance gpu-a100-1 went Running -> Stopped', 'GET /api/instance/list?page=2 answered 200'])(
    'leaves ordinary text alone: %s',
    (text) => {
      expect(redactText(text)).toBe(text)
    }
  )

  it('removes a known secret of any shape, everywhere it appears', () => {
    const secrets = new SecretSet()
    secrets.add('opaque#token!value')
    expect(redactText('a opaque#token!value b opaque#token!value', secrets)).toBe(`a ${REDACTED} b ${REDACTED}`)
    secrets.delete('opaque#token!value')
    expect(redactText('opaque#token!value', secrets)).toBe('opaque#token!value')
  })
})

describe('redactValue', () => {
  it('removes secret-named fields at any depth, keeping the rest', () => {
    const out = redactValue({
      user: 'demo',
      request: { headers: { authorization: 'x', Cookie: 'y' }, body: { userName: 'demo', password: 'pw-1' } },
      ssh: [{ host: '127.0.0.1', passphrase: 'pp-2', privateKey: 'k' }],
      session: { accessToken: 'tok-3', hasToken: true, expiresAt: 1790000000 }
    })
    expect(out).toEqual({
      user: 'demo',
      request: { headers: { authorization: REDACTED, Cookie: REDACTED }, body: { userName: 'demo', password: REDACTED } },
      ssh: [{ host: '127.0.0.1', passphrase: REDACTED, privateKey: REDACTED }],
      session: { accessToken: REDACTED, hasToken: true, expiresAt: 1790000000 }
    })
  })

  it('redacts errors: message, stack, cause chain and extra fields', () => {
    const cause = new Error(`upstream said: bad token ${JWT}`)
    const error = Object.assign(new Error('login failed for password=hunter22', { cause }), {
      code: 'E_AUTH',
      token: 'tok-4'
    })
    const text = JSON.stringify(redactValue(error))
    for (const secret of [JWT, 'hunter22', 'tok-4']) expect(text).not.toContain(secret)
    expect(text).toContain('E_AUTH')
    expect(text).toContain('login failed')
  })

  it('survives cycles, functions, buffers and deep nesting', () => {
    const a: Record<string, unknown> = { name: 'a', fn: () => 1, buf: Buffer.from('secret-bytes') }
    a['self'] = a
    let deep: Record<string, unknown> = { leaf: true }
    for (let i = 0; i < 20; i++) deep = { deep }
    const out = redactValue({ a, deep }) as { a: Record<string, unknown> }
    expect(out.a['self']).toBe('[circular]')
    expect(out.a['fn']).toBe('[function]')
    expect(out.a['buf']).toBe('[12 bytes]')
    expect(JSON.stringify(out)).toContain('[nested too deep]')
  })

  it('never lets a registered secret through, whatever it is wrapped in (property)', () => {
    const secretArb = fc.string({ minLength: 8, maxLength: 40 }).filter((s) => s.trim().length >= 8)
    fc.assert(
      fc.property(secretArb, fc.string(), fc.string(), (secret, before, after) => {
        const secrets = new SecretSet()
        secrets.add(secret)
        const text = `${before}${secret}${after}`
        const wrapped = { note: text, list: [text], error: new Error(text, { cause: { detail: text } }) }
        const out = JSON.stringify(redactValue(wrapped, secrets))
        // Compare in the form JSON would write the secret, since the output is JSON.
        return !out.includes(JSON.stringify(secret).slice(1, -1))
      }),
      { numRuns: 300 }
    )
  })
})
