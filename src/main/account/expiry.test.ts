import { describe, expect, it } from 'vitest'
import { EXPIRY_WARNING_MS, expiresAt, isExpired, warningAt } from './expiry'

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')
const jwt = (claims: Record<string, unknown>): string => `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}.c2ln`
const loginAt = Date.UTC(2026, 0, 1)

describe('expiry', () => {
  it.each<[string, string, number, number]>([
    ['JWT exp wins', jwt({ exp: loginAt / 1000 + 3600 }), 86_400, loginAt + 3_600_000],
    ['no exp: login + accessExpire seconds', jwt({ sub: 'demo' }), 86_400, loginAt + 86_400_000],
    ['not a JWT: login + accessExpire', 'opaque-token', 600, loginAt + 600_000],
    ['non-numeric exp ignored', jwt({ exp: 'soon' }), 60, loginAt + 60_000],
    ['accessExpire as Unix seconds', 'opaque', loginAt / 1000 + 100, loginAt + 100_000],
    ['accessExpire as Unix ms', 'opaque', loginAt + 5_000, loginAt + 5_000]
  ])('%s', (_name, token, accessExpire, expected) => {
    expect(expiresAt(token, loginAt, accessExpire)).toBe(expected)
  })

  it.each<[string, number, number, number | undefined]>([
    ['10 minutes before', loginAt + 3_600_000, loginAt, loginAt + 3_600_000 - EXPIRY_WARNING_MS],
    ['less than 10 minutes left: now', loginAt + 60_000, loginAt, loginAt],
    ['already expired: never', loginAt, loginAt, undefined]
  ])('warning time: %s', (_name, expires, now, expected) => {
    expect(warningAt(expires, now)).toBe(expected)
  })

  it('isExpired', () => {
    expect(isExpired(undefined, loginAt)).toBe(false)
    expect(isExpired(loginAt, loginAt - 1)).toBe(false)
    expect(isExpired(loginAt, loginAt)).toBe(true)
  })
})
