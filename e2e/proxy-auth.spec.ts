/**
 * A company proxy that asks for a user name and password (407), through the real app: the
 * web shell reads its proxy from HTTP_PROXY (given here, not taken from this process) and its
 * cloud is an emulator of the test's own at a name that is not loopback (loopback always goes
 * direct). The proxy connects every tunnel to 127.0.0.1, so `cloud.test` needs no DNS; a plain
 * forwarder in front of the emulator (faults-proxy.ts, losing nothing here) gives it the Host it
 * answers to (it refuses any other, against DNS rebinding).
 */
import { startEmulator } from '../src/emulator/index'
import { connectProxy, type ConnectProxy } from '../src/main/network/testing/private-ca'
import { startLossyProxy, type LossyProxy } from './faults-proxy'
import { expect, expectAccessible, FAST_EMULATOR, test as base } from './web-fixture'

const PROXY_USER = { username: 'alice', password: 'corp-s3cret' }

const test = base.extend<{ cloud: LossyProxy; corpProxy: ConnectProxy }>({
  cloud: async ({}, use) => {
    const emulator = await startEmulator({ port: 0, ...FAST_EMULATOR })
    const front = await startLossyProxy(emulator.baseUrl)
    await use(front)
    await front.close()
    await emulator.close()
  },
  corpProxy: async ({}, use) => {
    const proxy = await connectProxy(PROXY_USER)
    await use(proxy)
    await proxy.close()
  },
  shellOptions: async ({ cloud, corpProxy: proxy }, use) => {
    await use({
      baseUrl: `http://cloud.test:${new URL(cloud.baseUrl).port}/api`,
      proxyEnvironment: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
      emulator: FAST_EMULATOR
    })
  }
})

test('a proxy asking for a password: the sign-in says so, the dialog asks, a wrong one is refused in place, the right one lets the sign-in through', async ({
  page,
  shell,
  corpProxy: proxy
}) => {
  await page.goto(shell.url)
  await page.getByLabel('User name').fill('demo')
  await page.getByLabel('Password', { exact: true }).fill('demo')
  await page.getByRole('button', { name: 'Sign in' }).click()

  // The sign-in says what happened, next to where the user acted; the dialog asks for the proxy's pair.
  await expect(page.getByRole('alert').filter({ hasText: 'asks for a user name and password' })).toContainText(proxy.hostPort)
  const dialog = page.getByRole('dialog', { name: 'Sign in to the proxy' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText(proxy.hostPort)
  await expectAccessible(page, 'proxy-sign-in')

  // A wrong password: said at the password, with both fields kept as typed.
  await dialog.getByLabel('Proxy user name').fill(PROXY_USER.username)
  await dialog.getByLabel('Proxy password').fill('wrong')
  await dialog.getByRole('button', { name: 'Sign in to proxy' }).click()
  await expect(dialog).toContainText('The proxy did not accept that user name and password')
  await expect(dialog.getByLabel('Proxy user name')).toHaveValue(PROXY_USER.username)
  await expect(dialog.getByLabel('Proxy password')).toHaveValue('wrong')

  await dialog.getByLabel('Proxy password').fill(PROXY_USER.password)
  await dialog.getByRole('button', { name: 'Sign in to proxy' }).click()
  await expect(dialog).toBeHidden()

  // What the user typed in the sign-in form is still there: one more click signs in, through the proxy.
  await expect(page.getByLabel('User name')).toHaveValue('demo')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
  expect(proxy.tunnels.filter((target) => target.startsWith('cloud.test:')).length).toBeGreaterThan(0)
  const basic = `Basic ${Buffer.from(`${PROXY_USER.username}:${PROXY_USER.password}`).toString('base64')}`
  expect(proxy.authorizations).toContain(basic)
})
