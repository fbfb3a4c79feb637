import { decodeJwt, decodeProtectedHeader } from 'jose'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../shared/clock'
import { TOKEN_AUDIENCE, TOKEN_ISSUER, userUuid } from './auth'
import { sharedTestSigningKey, startEmulator, type Emulator } from './index'
import { login, pager, post } from './testing/http-client'

let emulator: Emulator
let clock: ManualClock

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0))
  emulator = await startEmulator({
    signingKeyPem: await sharedTestSigningKey(),
    clock,
    users: [
      { username: 'demo', password: 'demo' },
      { username: 'ada', password: 'lovelace' }
    ],
    tokenTtlSeconds: 3600,
    lockoutMs: 10 * 60_000
  })
})
afterEach(() => emulator.close())

describe('login', () => {
  it('answers an RS256 JWT with the real claims and exp − iat = the TTL', async () => {
    const answer = await post(emulator.baseUrl, '/user/login', { username: 'demo', password: 'demo', rememberMe: true })
    expect(answer.status).toBe(200)
    expect(answer.body.accessExpire).toBe(3600)
    const token = answer.body.accessToken as string
    expect(decodeProtectedHeader(token).alg).toBe('RS256')
    const claims = decodeJwt(token)
    expect(claims).toMatchObject({ iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, group: 'user', sub: userUuid('demo') })
    expect(claims.sub).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(claims.iat).toBe(Date.UTC(2026, 5, 1, 12, 0, 0) / 1000)
    expect(claims.exp! - claims.iat!).toBe(3600)
  })

  it('issues a new token on every login, also within the same second', async () => {
    const first = await login(emulator.baseUrl)
    const second = await login(emulator.baseUrl)
    expect(first).not.toBe(second)
  })

  it('sets the AccessToken cookie too, so a cookie jar works', async () => {
    const response = await fetch(`${emulator.baseUrl}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'demo' })
    })
    const body = (await response.json()) as { accessToken: string }
    expect(response.headers.get('set-cookie')).toContain(`AccessToken=${body.accessToken}; Path=/`)
    expect(response.headers.get('set-cookie')).toContain('HttpOnly')
  })

  it('counts wrong passwords down from 5 with code 10008, then locks and says until when', async () => {
    const seen: string[] = []
    for (let attempt = 0; attempt < 4; attempt++) {
      const answer = await post(emulator.baseUrl, '/user/login', { username: 'demo', password: 'wrong' })
      expect(answer.status).toBe(401)
      expect(answer.body.code).toBe(10008)
      expect(answer.body.message).toMatch(/incorrect user name or password/i)
      seen.push(answer.body.values.v0)
    }
    expect(seen).toEqual(['4', '3', '2', '1'])
    const fifth = await post(emulator.baseUrl, '/user/login', { username: 'demo', password: 'wrong' })
    expect(fifth.body.code).toBe(10008)
    expect(fifth.body.values.v0).toBe('0')
    expect(fifth.body.values.v1).toBe('2026-06-01T12:10:00.000Z')
    expect(fifth.body.message).toContain('locked')
    expect(fifth.body.message).toContain('2026-06-01 12:10:00 UTC')

    // Locked means locked, even with the right password; another account is unaffected.
    const locked = await post(emulator.baseUrl, '/user/login', { username: 'demo', password: 'demo' })
    expect(locked.status).toBe(429)
    expect(locked.body.values.v0).toBe('0')
    expect((await post(emulator.baseUrl, '/user/login', { username: 'ada', password: 'lovelace' })).status).toBe(200)

    emulator.control.advance(10 * 60_000)
    expect((await post(emulator.baseUrl, '/user/login', { username: 'demo', password: 'demo' })).status).toBe(200)
  })

  it('resets the countdown after a good login', async () => {
    await post(emulator.baseUrl, '/user/login', { username: 'demo', password: 'wrong' })
    await login(emulator.baseUrl)
    const answer = await post(emulator.baseUrl, '/user/login', { username: 'demo', password: 'wrong' })
    expect(answer.body.values.v0).toBe('4')
  })

  it('answers an unknown user exactly like a wrong password', async () => {
    const answer = await post(emulator.baseUrl, '/user/login', { username: 'nobody', password: 'x' })
    expect(answer.status).toBe(401)
    expect(answer.body).toMatchObject({ code: 10008, values: { v0: '4' } })
  })

  it('refuses a user list with an empty or repeated name', async () => {
    const signingKeyPem = await sharedTestSigningKey()
    await expect(startEmulator({ signingKeyPem, users: [{ username: '', password: 'x' }] })).rejects.toThrow(/non-empty/)
    await expect(
      startEmulator({
        signingKeyPem,
        users: [
          { username: 'a', password: 'x' },
          { username: 'a', password: 'y' }
        ]
      })
    ).rejects.toThrow(/listed twice/)
  })

  it('names a missing login field', async () => {
    const answer = await post(emulator.baseUrl, '/user/login', { username: 'demo' })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ message: 'field "password" is not set' })
  })
})

describe('the AccessToken cookie', () => {
  const list = (token?: string) => post(emulator.baseUrl, '/instance/list', pager(1, 10), token)

  it('is required: missing → code -1 with HTTP 401', async () => {
    const answer = await list()
    expect(answer.status).toBe(401)
    expect(answer.body.code).toBe(-1)
    expect(answer.body.message).toMatch(/not logged in/i)
  })

  it('expires at exp in emulator time', async () => {
    const token = await login(emulator.baseUrl)
    emulator.control.advance(3599_000)
    expect((await list(token)).status).toBe(200)
    emulator.control.advance(1000)
    const answer = await list(token)
    expect(answer.status).toBe(401)
    expect(answer.body.code).toBe(-1)
    expect(answer.body.message).toMatch(/expired/i)
  })

  it('expires with the clock itself, not only through advance', async () => {
    const token = await login(emulator.baseUrl)
    clock.advance(3600_000)
    expect((await list(token)).body.code).toBe(-1)
  })

  it('is refused when forged, tampered or signed by another emulator', async () => {
    const token = await login(emulator.baseUrl)
    const [header, payload, signature] = token.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 10 })).toString('base64url')}.${signature}`
    expect((await list(tampered)).body.code).toBe(-1)
    expect((await list('not-a-jwt')).body.code).toBe(-1)
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`
    expect((await list(unsigned)).body.code).toBe(-1)
    const other = await startEmulator({ clock })
    try {
      expect((await list(await login(other.baseUrl))).body.code).toBe(-1)
    } finally {
      await other.close()
    }
  })

  it('control.expireTokens refuses every token issued so far, per user or for all', async () => {
    const demo = await login(emulator.baseUrl)
    const ada = await login(emulator.baseUrl, 'ada', 'lovelace')
    emulator.control.expireTokens('demo')
    expect((await list(demo)).body.code).toBe(-1)
    expect((await list(ada)).status).toBe(200)
    const fresh = await login(emulator.baseUrl)
    expect((await list(fresh)).status).toBe(200)
    emulator.control.expireTokens()
    expect((await list(fresh)).body.code).toBe(-1)
    expect((await list(ada)).body.code).toBe(-1)
  })
})
