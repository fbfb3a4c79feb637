import { describe, expect, it } from 'vitest'
import { CloudError } from './errors'
import { redactError, redactToken } from './redact'

const SECRET = 'eyJhbGciOiJSUzI1NiJ9.payload.signature'

describe('redactToken', () => {
  it('replaces every occurrence', () => {
    expect(redactToken(`a ${SECRET} b ${SECRET}`, SECRET)).toBe('a [redacted] b [redacted]')
  })

  it('leaves text alone without a secret, or with one too short to be a token', () => {
    expect(redactToken('abc', undefined)).toBe('abc')
    expect(redactToken('a b c', 'b')).toBe('a b c')
  })
})

describe('redactError', () => {
  it('returns the same error when nothing mentions the secret', () => {
    const error = new CloudError('server', 'boom', { status: 500, cause: new Error('socket') })
    expect(redactError(error, SECRET)).toBe(error)
  })

  it('scrubs the message and keeps the details', () => {
    const error = new CloudError('invalid-request', `echo ${SECRET}`, { field: 'name', status: 400 })
    const clean = redactError(error, SECRET)
    expect(clean.message).toBe('echo [redacted]')
    expect(clean).toMatchObject({ kind: 'invalid-request', field: 'name', status: 400 })
    expect(clean.stack).not.toContain(SECRET)
  })

  it('drops a cause that mentions the secret, however deep', () => {
    const cause = new Error('outer', { cause: new Error(`inner ${SECRET}`) })
    const clean = redactError(new CloudError('network', 'cut off', { cause }), SECRET)
    expect(clean.cause).toBeUndefined()
    expect(clean.message).toBe('cut off')
    const plain = redactError(new CloudError('network', 'cut off', { cause: { headers: { cookie: SECRET } } }), SECRET)
    expect(plain.cause).toBeUndefined()
  })
})
