/**
 * Issue #12 item 1 from a web page in the user's browser: a page on another origin (here another
 * 127.0.0.1 port) sends the requests a browser lets any page send without a CORS preflight
 * (no-cors POSTs of JSON text as text/plain, a typeless Blob, a form type), plus a CORS request
 * that needs a preflight, to the emulator's API and control routes. Nothing may happen: checked
 * through the in-process control. The emulator runs with the public demo / demo account of
 * `npm run emulator`, and the page sends it, so only the emulator's own checks stand in the way.
 */
import { expect, test } from '@playwright/test'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ManualClock } from '../src/shared/clock'
import { startEmulator, type Emulator } from '../src/emulator/index'
import { validCreate } from '../src/emulator/testing/http-client'

let emulator: Emulator
let attacker: Server
let attackerOrigin: string

test.beforeEach(async () => {
  emulator = await startEmulator({ port: 0, clock: new ManualClock(), bootMs: 0 })
  attacker = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>A page on another origin</title><h1>Nothing to see</h1>')
  })
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve))
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`
})

test.afterEach(async () => {
  attacker.closeAllConnections()
  await new Promise((resolve) => attacker.close(resolve))
  await emulator.close()
})

test('#12 item 1: no-cors requests from a page on another origin create nothing and change nothing', async ({ page }) => {
  await page.goto(attackerOrigin)
  await expect(page.getByRole('heading', { name: 'Nothing to see' })).toBeVisible()
  const nowBefore = emulator.control.now()

  const outcomes = await page.evaluate(
    async ({ api, control, create }) => {
      const targets: [string, unknown][] = [
        [`${api}/user/login`, { username: 'demo', password: 'demo' }],
        [`${api}/instance/create`, create],
        [`${control}/seed`, { username: 'demo', count: 5 }],
        [`${control}/ssh-keys`, { username: 'demo', publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAttacker page@attacker' }],
        [`${control}/advance`, { ms: 86_400_000 }],
        [`${control}/faults/down`, { down: true }]
      ]
      const variants: [string, (text: string) => RequestInit][] = [
        ['no-cors text/plain', (text) => ({ mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: text })],
        [
          'no-cors asking for JSON (the browser drops the header)',
          (text) => ({ mode: 'no-cors', headers: { 'Content-Type': 'application/json' }, body: text })
        ],
        ['no-cors Blob without a type', (text) => ({ mode: 'no-cors', body: new Blob([text]) })],
        [
          'no-cors form type',
          (text) => ({ mode: 'no-cors', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: text })
        ],
        ['cors JSON (needs a preflight)', (text) => ({ mode: 'cors', headers: { 'Content-Type': 'application/json' }, body: text })]
      ]
      const results: string[] = []
      // Twice, so the second round carries any cookie the first round's login could have set.
      for (let round = 0; round < 2; round++) {
        for (const [name, init] of variants) {
          for (const [url, body] of targets) {
            try {
              const response = await fetch(url, { method: 'POST', credentials: 'include', ...init(JSON.stringify(body)) })
              results.push(`${name} ${url}: ${response.type}`)
            } catch (error) {
              results.push(`${name} ${url}: ${(error as Error).name}`)
            }
          }
        }
      }
      return results
    },
    { api: emulator.baseUrl, control: emulator.controlUrl, create: validCreate({ name: 'from-a-page' }) }
  )
  // Nothing was created, no time moved, no API request reached a route, and the API is up.
  expect(emulator.control.instances()).toEqual([])
  expect(emulator.control.now()).toBe(nowBefore)
  expect(emulator.control.requestCount()).toBe(0)
  const login = await fetch(`${emulator.baseUrl}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo' })
  })
  expect(login.status).toBe(200)
  // No cookie for the emulator was ever set in the browser.
  expect((await page.context().cookies()).filter((cookie) => cookie.name === 'AccessToken')).toEqual([])

  // The page really sent them: every no-cors fetch settled (opaque), the CORS one failed its preflight.
  expect(outcomes).toHaveLength(2 * 5 * 6)
  expect(outcomes.filter((line) => line.startsWith('no-cors') && !line.endsWith(': opaque'))).toEqual([])
  expect(outcomes.filter((line) => line.startsWith('cors') && !line.endsWith(': TypeError'))).toEqual([])
})
