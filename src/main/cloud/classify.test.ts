import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { InstanceIdResponseSchema, LoginResultSchema } from '../../shared/api'
import { exchangeFailure, interpretAnswer, type CallContext, type CloudOperation } from './classify'
import { CloudError } from './errors'

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0)

function context(operation: CloudOperation = 'createInstance'): CallContext {
  return { operation, origin: 'https://cloud.example', now: () => NOW }
}

function failure(
  status: number,
  body: unknown,
  operation?: CloudOperation,
  schema: z.ZodType<unknown> = InstanceIdResponseSchema
): CloudError {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  try {
    interpretAnswer({ status, text }, schema, context(operation))
  } catch (error) {
    expect(error).toBeInstanceOf(CloudError)
    return error as CloudError
  }
  throw new Error('expected a CloudError')
}

/** The CloudError a failed sign-in answer (`status`, `body`) becomes. */
function loginFailure(status: number, body: unknown): CloudError {
  return failure(status, body, 'login', LoginResultSchema)
}

describe('interpretAnswer: success', () => {
  it('returns the parsed value and tolerates unknown fields', () => {
    const value = interpretAnswer(
      { status: 200, text: JSON.stringify({ accessToken: 'abc', accessExpire: 86400, extra: { nested: 1 } }) },
      LoginResultSchema,
      context('login')
    )
    expect(value).toEqual({ accessToken: 'abc', accessExpire: 86400 })
  })
})

describe('interpretAnswer: error bodies by shape, whatever the status', () => {
  it.each([200, 401, 403, 500])('code -1 is not-logged-in (HTTP %i)', (status) => {
    const error = failure(status, { code: -1, message: 'not logged in' }, 'listInstances')
    expect(error.kind).toBe('not-logged-in')
    expect(error.message).toMatch(/log in again/i)
  })

  it.each([200, 400, 401])('code 10008 is bad-credentials with retriesLeft from values.v0 (HTTP %i)', (status) => {
    const error = failure(
      status,
      { code: 10008, message: 'wrong password, 3 retries left', values: { v0: '3' } },
      'login',
      LoginResultSchema
    )
    expect(error.kind).toBe('bad-credentials')
    expect(error.retriesLeft).toBe(3)
    expect(error.lockedUntil).toBeUndefined()
    expect(error.message).toContain('3 attempts are left')
    expect(error.toInfo()).toEqual({ kind: 'bad-credentials', message: error.message, retriesLeft: 3 })
  })

  it('a lockout with an instant gives lockedUntil', () => {
    const error = loginFailure(401, {
      code: 10008,
      message: 'Too many failed logins: account locked until 2026-01-01T12:15:00.000Z',
      values: { v0: '0' }
    })
    expect(error.kind).toBe('bad-credentials')
    expect(error.retriesLeft).toBe(0)
    expect(error.lockedUntil).toBe(Date.UTC(2026, 0, 1, 12, 15))
    expect(error.message).toMatch(/locked .*until/i)
  })

  it('a wrong password that mentions the coming lock is not a lockout', () => {
    const error = loginFailure(401, {
      code: 10008,
      message: 'Incorrect user name or password. 1 try left before the account is locked.',
      values: { v0: '1' }
    })
    expect(error.retriesLeft).toBe(1)
    expect(error.lockedUntil).toBeUndefined()
    expect(error.message).toContain('1 attempt is left')
  })

  it('an ISO instant among the values gives lockedUntil', () => {
    const error = loginFailure(429, {
      code: 10008,
      message: 'Too many failed logins.',
      values: { v0: '0', v1: '2026-01-01T12:30:00.000Z' }
    })
    expect(error.lockedUntil).toBe(Date.UTC(2026, 0, 1, 12, 30))
  })

  it('a lockout without an instant still says the account is locked', () => {
    const error = loginFailure(200, { code: 10008, message: 'account locked', values: { v0: '0' } })
    expect(error.lockedUntil).toBeUndefined()
    expect(error.message).toMatch(/locked/)
  })

  it('a malformed v0 leaves retriesLeft unset instead of NaN', () => {
    for (const v0 of ['many', '-1', '2.5', '']) {
      const error = loginFailure(400, { code: 10008, message: 'wrong', values: { v0 } })
      expect(error.retriesLeft).toBeUndefined()
    }
    expect(loginFailure(400, { code: 10008, message: 'wrong' }).retriesLeft).toBeUndefined()
  })

  it('a message naming a field is invalid-request with that field', () => {
    const error = failure(400, { message: 'field "instanceConfiguration.enableDocker" is not set' })
    expect(error.kind).toBe('invalid-request')
    expect(error.field).toBe('instanceConfiguration.enableDocker')
    expect(error.message).toContain('instanceConfiguration.enableDocker')
    expect(error.toInfo().field).toBe('instanceConfiguration.enableDocker')
  })

  it('an answer naming several fields carries each, with what it said of each (#24)', () => {
    const error = failure(400, {
      message:
        'field "name" must be at most 128 characters long; field "instanceConfiguration.dockerStorageSize" must be between 0 and 100000, not 1e+20'
    })
    expect(error.kind).toBe('invalid-request')
    expect(error.field).toBe('name')
    expect(error.toInfo().fields).toEqual([
      { field: 'name', said: 'field "name" must be at most 128 characters long' },
      {
        field: 'instanceConfiguration.dockerStorageSize',
        said: 'field "instanceConfiguration.dockerStorageSize" must be between 0 and 100000, not 1e+20'
      }
    ])
    expect(error.message).toContain('Check the fields "name", "instanceConfiguration.dockerStorageSize"')
  })

  it('a field-naming message is invalid-request even on HTTP 200 or 500', () => {
    expect(failure(200, { message: 'field "name" is not set' }).kind).toBe('invalid-request')
    expect(failure(500, { message: 'field "name" is not set' }).field).toBe('name')
  })

  it('an unknown id named by field is invalid-request, not not-found', () => {
    const error = failure(400, { message: 'field "imageId": no image with id "x" exists' })
    expect(error.kind).toBe('invalid-request')
    expect(error.field).toBe('imageId')
  })

  it('"already exists" is already-exists, pointing a create form at the name', () => {
    const error = failure(409, { message: 'Volume already exists' }, 'createVolume')
    expect(error.kind).toBe('already-exists')
    expect(error.field).toBe('name')
    expect(error.message).toContain('Volume already exists')
  })

  it('"not found" is not-found', () => {
    const error = failure(404, { message: 'ent: instance not found' }, 'stopInstance')
    expect(error.kind).toBe('not-found')
    expect(error.field).toBeUndefined()
    expect(error.message).toContain('stop the instance')
  })

  it('a message-only body without a field is invalid-request below 500 and server from 500', () => {
    expect(failure(400, { message: 'instance is already stopped' }, 'stopInstance').kind).toBe('invalid-request')
    expect(failure(200, { message: 'nope' }, 'stopInstance').kind).toBe('invalid-request')
    const server = failure(503, { message: 'emulator: injected failure' }, 'stopInstance')
    expect(server.kind).toBe('server')
    expect(server.status).toBe(503)
    expect(server.message).toContain('HTTP 503')
  })

  it('an unknown code with a message is read like a message-only body', () => {
    expect(failure(400, { code: 4242, message: 'quota exceeded' }).kind).toBe('invalid-request')
  })
})

describe('interpretAnswer: other answers', () => {
  it('non-2xx without an error body is server', () => {
    expect(failure(502, '<html>Bad gateway</html>').kind).toBe('server')
    expect(failure(500, { error: 'boom' }).kind).toBe('server')
    expect(failure(404, '').kind).toBe('server')
  })

  it('2xx that is not JSON, or not the documented shape, is unexpected-response', () => {
    const html = failure(200, '<html>login portal</html>')
    expect(html.kind).toBe('unexpected-response')
    expect(html.message).toContain('https://cloud.example')
    expect(failure(200, { instanceId: 42 }).kind).toBe('unexpected-response')
    expect(failure(200, []).kind).toBe('unexpected-response')
    expect(failure(200, 'null').kind).toBe('unexpected-response')
    expect(failure(204, '').kind).toBe('unexpected-response')
  })
})

describe('exchangeFailure', () => {
  function withCode(code: string, wrap?: 'cause' | 'aggregate'): unknown {
    const inner = Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code })
    if (wrap === 'cause') return new TypeError('fetch failed', { cause: inner })
    if (wrap === 'aggregate') return Object.assign(new AggregateError([inner], ''), {})
    return inner
  }

  it.each([
    ['ECONNREFUSED', /connection refused/],
    ['ENOTFOUND', /could not be resolved/],
    ['EAI_AGAIN', /could not be resolved/],
    ['UND_ERR_CONNECT_TIMEOUT', /timed out/],
    ['UND_ERR_HEADERS_TIMEOUT', /stopped answering/],
    ['UND_ERR_BODY_TIMEOUT', /stopped answering/],
    ['ECONNRESET', /cut off/],
    ['UND_ERR_SOCKET', /cut off/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', /certificate is not trusted/],
    ['EHOSTUNREACH', /check your network/]
  ])('%s is network', (code, message) => {
    for (const wrap of [undefined, 'cause', 'aggregate'] as const) {
      const error = exchangeFailure(withCode(code, wrap), context('listInstances'))
      expect(error.kind).toBe('network')
      expect(error.message).toMatch(message)
      expect(error.message).toContain('https://cloud.example')
    }
  })

  it('an answer that is not HTTP is unexpected-response', () => {
    expect(exchangeFailure(withCode('HPE_INVALID_CONSTANT'), context()).kind).toBe('unexpected-response')
  })

  it('anything else is still a typed network error', () => {
    expect(exchangeFailure('weird', context()).kind).toBe('network')
    expect(exchangeFailure(undefined, context()).kind).toBe('network')
  })
})
