/**
 * The web shell's page after its connection drops: events main sent while the socket was down
 * are lost, so once it is back every store that mirrors main's state reads it again
 * (src/renderer/src/mirrors.ts). Here main's balance and catalog change during the outage, and
 * the window shows both as soon as it reconnects: no minute timer, no remounting the form.
 *
 * The page's socket goes through Playwright's WebSocket route, which lets the test drop it and
 * hold the page's reconnect attempts until main has changed (a held attempt is just a socket
 * still connecting, as behind a slow network).
 */
import type { Page, WebSocketRoute } from '@playwright/test'
import { expect, signIn, test } from './web-fixture'

/** The A100 type of the create form, by its radio's accessible name. */
const A100 = /^1 × A100-PCIE-80GB /
const NEW_PRICE = 7.77
const NEW_BALANCE = 4321.5

/** The page's sockets to the web shell; `hold()` keeps new ones from connecting until `release()`. */
interface SocketGate {
  drop(): Promise<void>
  hold(): void
  release(): void
  /** How many sockets the page opened. */
  opened(): number
}

async function gateSockets(page: Page): Promise<SocketGate> {
  const routes: WebSocketRoute[] = []
  let held: Promise<void> = Promise.resolve()
  let release = (): void => {}
  // Playwright opens a routed socket only after the handler returns: while it waits, the page's
  // attempt is simply still connecting.
  await page.routeWebSocket(/\/ws$/, async (route) => {
    await held
    route.connectToServer()
    routes.push(route)
  })
  return {
    drop: async () => {
      // Closing the page's side closes the server's too: main sees the client gone.
      await routes.at(-1)?.close({ code: 1006, reason: 'Dropped by the test' })
    },
    hold: () => {
      held = new Promise((resolve) => (release = resolve))
    },
    release: () => release(),
    opened: () => routes.length
  }
}

test('after a reconnect the window re-reads main: a balance and a catalog changed while the socket was down', async ({ page, shell }) => {
  const sockets = await gateSockets(page)
  await signIn(page, shell)
  const balance = page.getByRole('status', { name: 'Balance' })
  await expect(balance).toContainText('Balance:')

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'New instance' }).click()
  const a100 = page.getByRole('radio', { name: A100 })
  await expect(a100).toBeVisible()
  await expect(a100).not.toHaveAccessibleName(/\$7\.77/)

  sockets.hold()
  await sockets.drop()
  await expect(page.getByRole('alert').filter({ hasText: 'Lost the connection to Cloud Tray' })).toBeVisible()

  // Meanwhile main reads a new balance and a new catalog; its events go to no page.
  const emulator = shell.emulator()
  emulator.setBalance('demo', { balance: NEW_BALANCE, voucher: 0, credit: 0 })
  emulator.faults.rewriteAnswers('/resource/user/instance/list', (feed) => ({
    instanceInfos: feed.instanceInfos.map((family: { gpuName: string; regionInfos: { instanceTypeInfos: { price: unknown[] }[] }[] }) =>
      family.gpuName !== 'A100-PCIE-80GB'
        ? family
        : {
            ...family,
            regionInfos: family.regionInfos.map((region) => ({
              ...region,
              instanceTypeInfos: region.instanceTypeInfos.map((type) => ({ ...type, price: [{ chargeMode: 'perHour', price: NEW_PRICE }] }))
            }))
          }
    )
  }))
  const context = { clientId: 'e2e' }
  const readBalance = await shell.core.handle('balance.refresh', undefined, context)
  expect(readBalance.ok && readBalance.value.balance?.balance).toBe(NEW_BALANCE)
  const readCatalog = await shell.core.handle('catalog.refresh', undefined, context)
  expect(readCatalog.ok && readCatalog.value.fetchedAt).toBeTruthy()
  // Still down: what the page shows is what it had.
  await expect(balance).not.toContainText('$4,321.50')
  await expect(a100).not.toHaveAccessibleName(/\$7\.77/)

  const before = sockets.opened()
  sockets.release()
  await expect.poll(() => sockets.opened()).toBeGreaterThan(before)
  await expect(page.getByRole('alert').filter({ hasText: 'Lost the connection to Cloud Tray' })).toBeHidden()
  // Main reads the balance again only in a minute and the catalog only when asked: what shows
  // now came from the page asking after the reconnect.
  await expect(balance).toContainText('$4,321.50', { timeout: 5_000 })
  await expect(a100).toHaveAccessibleName(/\$7\.77 \/ hour/, { timeout: 5_000 })
})
