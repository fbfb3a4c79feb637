/**
 * What several stand-in scenario files do the same way: sign in to the Sandbox through the app
 * window, as the sign-in form would.
 */
import { expect } from 'vitest'
import type { StandInApp } from './harness'
import type { WindowView } from './protocol'

/** The Sandbox's password is random per install; the sign-in form is given it, as here. */
export async function sandboxPassword(app: StandInApp, main: WindowView): Promise<string> {
  // The window opens before the Sandbox has started; its password is known once it has.
  return app.until('the Sandbox password', async () => {
    const profiles = await app.invoke(main.webContentsId, 'profiles.get')
    return profiles.ok ? profiles.value.demoPassword : undefined
  })
}

export async function signIn(app: StandInApp, main: WindowView, rememberMe = false): Promise<void> {
  const password = await sandboxPassword(app, main)
  const result = await app.invoke(main.webContentsId, 'session.login', { profileId: 'sandbox', username: 'demo', password, rememberMe })
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true, value: { status: 'signed-in' } })
}
