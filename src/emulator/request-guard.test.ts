import { describe, expect, it } from 'vitest'
import { declaresBody, isJsonMediaType, refuseRequest, refuseWithoutSecret, type GuardedRequest } from './request-guard'

const OWN = '127.0.0.1:4000'
const ok: GuardedRequest = { host: OWN, origin: undefined, contentType: 'application/json', hasBody: true }

describe('refuseRequest (#12 item 1)', () => {
  it.each<[string, Partial<GuardedRequest>, number | undefined]>([
    ['curl or the app: own Host, no Origin, JSON', {}, undefined],
    ['the own origin (a page served by the emulator itself)', { origin: `http://${OWN}` }, undefined],
    ['a GET without a body and without a type', { contentType: undefined, hasBody: false }, undefined],
    ['JSON with a charset, any case', { contentType: 'Application/JSON; charset=utf-8' }, undefined],
    ['no Host', { host: undefined }, 403],
    ['a rebound name', { host: 'attacker.example:4000' }, 403],
    ['localhost instead of the bound address', { host: 'localhost:4000' }, 403],
    ['another port', { host: '127.0.0.1:4001' }, 403],
    ['a foreign page', { origin: 'http://attacker.example' }, 403],
    ['a sandboxed or file page', { origin: 'null' }, 403],
    ['another loopback port', { origin: 'http://127.0.0.1:5173' }, 403],
    ['https of the own host', { origin: `https://${OWN}` }, 403],
    ['text/plain (a no-cors fetch)', { contentType: 'text/plain;charset=UTF-8' }, 415],
    ['a form', { contentType: 'application/x-www-form-urlencoded' }, 415],
    ['a multipart form', { contentType: 'multipart/form-data; boundary=x' }, 415],
    ['a body without a type (a Blob)', { contentType: undefined }, 415],
    ['a look-alike type', { contentType: 'application/jsonp' }, 415]
  ])('%s', (_name, change, status) => {
    const refusal = refuseRequest({ ...ok, ...change }, OWN)
    expect(refusal?.status).toBe(status)
    if (refusal) expect(refusal.message.length).toBeGreaterThan(20)
  })
})

describe('refuseWithoutSecret (#12 item 1)', () => {
  it.each<[string, string | undefined, boolean]>([
    ['the secret', 'Bearer s3cret', true],
    ['any case of the scheme', 'bearer s3cret', true],
    ['no header', undefined, false],
    ['a wrong secret', 'Bearer s3cre', false],
    ['a longer one', 'Bearer s3cret0', false],
    ['another scheme', 'Basic czNjcmV0', false],
    ['the secret alone', 's3cret', false],
    ['an empty bearer', 'Bearer ', false]
  ])('%s', (_name, header, allowed) => {
    const refusal = refuseWithoutSecret(header, 's3cret')
    expect(refusal === undefined).toBe(allowed)
    if (refusal) expect(refusal.status).toBe(401)
  })
})

describe('helpers', () => {
  it('knows when headers declare a body', () => {
    expect(declaresBody({})).toBe(false)
    expect(declaresBody({ 'content-length': '0' })).toBe(false)
    expect(declaresBody({ 'content-length': '2' })).toBe(true)
    expect(declaresBody({ 'transfer-encoding': 'chunked' })).toBe(true)
  })

  it('reads media types', () => {
    expect(isJsonMediaType('application/json')).toBe(true)
    expect(isJsonMediaType(' application/json ;charset=utf-8')).toBe(true)
    expect(isJsonMediaType('text/json')).toBe(false)
    expect(isJsonMediaType(undefined)).toBe(false)
  })
})
