import { describe, expect, it } from 'vitest'
import type { CommandName, SessionState } from '../../shared/contract'
import { ReloginGate } from './relogin-gate'

class NotLoggedIn extends Error {}

const signedIn = (profileId: string, username: string): SessionState => ({
  status: 'signed-in',
  profileId,
  username,
  remembered: false,
  keychain: 'available'
})
const signedOut = (profileId: string): SessionState => ({ status: 'signed-out', profileId, remembered: false, keychain: 'available' })

/** A session stand-in and the gate over it; `expired` lists what each expiry named. */
function rig(initial: SessionState = signedIn('cloud', 'ada')) {
  const session = { generation: 1, current: initial, state: () => session.current }
  const expired: (CommandName | null)[] = []
  const gate = new ReloginGate({
    session,
    isNotLoggedIn: (error) => error instanceof NotLoggedIn,
    expire: async (pending) => {
      expired.push(pending)
      if (session.current.status === 'signed-in') session.current = { ...session.current, status: 'expired' }
    }
  })
  const login = (state: SessionState): void => {
    session.generation++
    session.current = state
    gate.release(state)
  }
  return { gate, session, expired, login }
}

/** An attempt that fails with not-logged-in `failures` times, then answers; counts its calls. */
function attempts(failures: number) {
  let calls = 0
  return {
    get calls() {
      return calls
    },
    run: async (): Promise<string> => {
      calls++
      if (calls <= failures) throw new NotLoggedIn('token refused')
      return `done on call ${calls}`
    }
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

describe('ReloginGate', () => {
  it('parks a command on not-logged-in, expires the session naming it, and finishes it after the same account signs in', async () => {
    const { gate, expired, login } = rig()
    const create = attempts(1)
    const result = gate.run('instances.create', create.run)
    await settle()
    expect(expired).toEqual(['instances.create'])
    expect(gate.waiting).toBe(1)
    login(signedIn('cloud', 'ada'))
    await expect(result).resolves.toBe('done on call 2')
    expect(gate.waiting).toBe(0)
  })

  it('ends the command with its error when the user signs out or another account signs in', async () => {
    for (const next of [signedOut('cloud'), signedIn('cloud', 'grace'), signedIn('sandbox', 'ada')]) {
      const { gate, login } = rig()
      const create = attempts(1)
      const result = gate.run('instances.create', create.run)
      await settle()
      login(next)
      await expect(result).rejects.toBeInstanceOf(NotLoggedIn)
      expect(create.calls).toBe(1)
    }
  })

  it('retries at once when the token was replaced while the call ran', async () => {
    const { gate, session, expired } = rig()
    const result = gate.run('volumes.create', async () => {
      if (session.generation === 1) {
        // The user signed in again in another window while this call was on the wire.
        session.generation = 2
        throw new NotLoggedIn('old token')
      }
      return 'with the new token'
    })
    await expect(result).resolves.toBe('with the new token')
    expect(expired).toEqual([])
  })

  it('gives up after a second not-logged-in, expiring the session again', async () => {
    const { gate, expired, login } = rig()
    const stubborn = attempts(2)
    const result = gate.run('instances.stop', stubborn.run)
    await settle()
    login(signedIn('cloud', 'ada'))
    await expect(result).rejects.toBeInstanceOf(NotLoggedIn)
    expect(stubborn.calls).toBe(2)
    expect(expired).toEqual(['instances.stop', null])
  })

  it('passes other errors and the login commands themselves straight through', async () => {
    const { gate, expired } = rig()
    await expect(gate.run('instances.create', () => Promise.reject(new Error('quota')))).rejects.toThrow('quota')
    await expect(gate.run('session.login', attempts(1).run)).rejects.toBeInstanceOf(NotLoggedIn)
    expect(expired).toEqual([])
    expect(gate.waiting).toBe(0)
  })

  it('ends every parked command when the app quits', async () => {
    const { gate } = rig()
    const first = gate.run('instances.create', attempts(1).run)
    const second = gate.run('volumes.create', attempts(1).run)
    await settle()
    expect(gate.waiting).toBe(2)
    gate.cancelAll()
    await expect(first).rejects.toBeInstanceOf(NotLoggedIn)
    await expect(second).rejects.toBeInstanceOf(NotLoggedIn)
  })
})
