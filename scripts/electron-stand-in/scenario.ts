/**
 * What several stand-in scenario files do the same way: sign in to the Sandbox through the app
 * window, as the sign-in form would.
 */
import { expect } from 'vitest'
import { launchStandIn, type LaunchOptions, type StandInApp } from './harness'
import type { WindowView } from './protocol'
import { emulatorCreateRequest } from '../../src/emulator/testing/http-client'

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

const CREATE = emulatorCreateRequest({ name: 'stand-in', nodePorts: [8888] })

/** Creates an instance in the Sandbox and waits for it to run (the Sandbox boots in 6 s). */
export async function createRunning(app: StandInApp, main: WindowView, name: string): Promise<string> {
  const created = await app.invoke(main.webContentsId, 'instances.create', { request: { ...CREATE, name } })
  if (!created.ok) throw new Error(JSON.stringify(created))
  const instanceId = created.value.instanceId
  await app.until(
    `${name} Running`,
    async () => {
      const snapshot = await app.invoke(main.webContentsId, 'instances.refresh')
      return snapshot.ok &&
        snapshot.value.instances.some((i) => i.instanceMetadata.instanceId === instanceId && i.instanceRuntimeInfo.status === 'Running')
        ? true
        : undefined
    },
    30_000
  )
  return instanceId
}

/** Launches the built app under the stand-in and waits for its window; `keep` is told the app, to stop it after the test. */
export async function launchWithWindow(
  buildDir: string,
  options: Omit<LaunchOptions, 'buildDir'>,
  keep: (app: StandInApp) => void
): Promise<{ app: StandInApp; main: WindowView }> {
  const app = await launchStandIn({ buildDir, ...options })
  keep(app)
  const main = await app.mainWindow()
  return { app, main }
}
