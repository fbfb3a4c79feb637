import { describe, expect, it } from 'vitest'
import { formatClock } from '../lib/format'
import { describeLoginError } from './login-errors'

describe('login errors', () => {
  it('counts the retries left', () => {
    expect(describeLoginError({ kind: 'bad-credentials', message: 'x', retriesLeft: 3 }, undefined).text).toBe(
      'Wrong user name or password. 3 attempts left before the account locks.'
    )
    expect(describeLoginError({ kind: 'bad-credentials', message: 'x', retriesLeft: 1 }, undefined).text).toMatch(/1 attempt left/)
    expect(describeLoginError({ kind: 'bad-credentials', message: 'x' }, undefined).text).toBe('Wrong user name or password.')
  })

  it('says until when a lockout lasts', () => {
    const until = new Date(2026, 0, 1, 14, 5).getTime()
    const problem = describeLoginError({ kind: 'bad-credentials', message: 'x', retriesLeft: 0, lockedUntil: until }, undefined)
    expect(problem.text).toBe(`Too many wrong passwords: this account is locked until ${formatClock(until)}.`)
  })

  it('names the server that could not be reached and points at Settings', () => {
    const problem = describeLoginError({ kind: 'network', message: 'Connection refused.' }, 'https://hpc-ai.com/api')
    expect(problem.text).toBe('Could not reach https://hpc-ai.com/api: Connection refused.')
    expect(problem.suggestSettings).toBe(true)
  })

  it('says an unreachable profile once: main’s words already name it and what to do (#24)', () => {
    const message =
      "Could not reach https://127.0.0.1:9: nothing answered there (connection refused). Check the profile's address, and that the service is running."
    const problem = describeLoginError({ kind: 'network', message }, 'https://127.0.0.1:9/api')
    const said = [problem.text, problem.hint ?? ''].join(' ')
    expect(said.match(/Could not reach/g)).toHaveLength(1)
    expect(said.match(/Check the profile's address/g)).toHaveLength(1)
    expect(problem.text).toBe(message)
    expect(problem.suggestSettings).toBe(true)
  })

  it('passes other messages through', () => {
    expect(describeLoginError({ kind: 'server', message: 'The cloud had a problem.' }, undefined)).toEqual({
      text: 'The cloud had a problem.',
      suggestSettings: false
    })
  })
})
