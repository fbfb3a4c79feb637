/**
 * A hostile or broken cloud against the real app (`npm run web`'s shell in Chromium), #12
 * items 6–9 (and 11's port links): lying totals, repeated ids and ports, answers lost on the way
 * back, requests that never arrive, and another client making look-alike instances.
 *
 * The app's cloud is an emulator of our own (in-process: its `control` plays the hostile
 * service with `faults.rewriteAnswers`), behind a loopback proxy that can lose answers or drop
 * requests per path. The core and the emulator share a ManualClock: polls happen only when the
 * test moves time, and creation times are exact.
 */
import type { Page } from '@playwright/test'
import type { Emulator } from '../src/emulator/index'
import { emulatorCreateRequest } from '../src/emulator/testing/http-client'
import type { ManualClock } from '../src/shared/clock'
import { advanceClock } from './clocked-test'
import { chooseLaunch, launchReviewed } from './launch-helpers'
import { clockedLossyCloudTest as test, signInToOwnCloud as signIn } from './lossy-cloud'
import { captureScreen, expect } from './web-fixture'

const IMAGE = 'img-pytorch-2.5-cuda12.4'
const TYPE = 'gpu-a100-80g-1x'
const TYPE_CHOICE = /^1 × A100-PCIE-80GB /
const REGION = '6f1c2a4e-8d3b-4c5a-9e7f-1a2b3c4d5e6f'
/** Moves simulated time forward, by default in half-second steps. */
const tick = (clock: ManualClock, ms: number, stepMs = 500): Promise<void> => advanceClock(clock, ms, stepMs)

/** Another client of the same account, talking to the cloud directly. */
async function otherClient(emulator: Emulator, path: string, body: string): Promise<any> {
  const login = await fetch(`${emulator.baseUrl}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo' })
  })
  const { accessToken } = (await login.json()) as { accessToken: string }
  const answer = await fetch(`${emulator.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `AccessToken=${accessToken}` },
    body
  })
  expect(answer.status).toBe(200)
  return answer.json()
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' })
const details = (page: Page) => page.getByRole('complementary', { name: 'Instance details' })

test('#12 item 6: a total of a billion with empty pages costs a poll a handful of requests, not 2,000', async ({
  page,
  shell,
  upstream,
  clock
}) => {
  await upstream.control.seedInstances('demo', 3, { name: 'real' })
  upstream.control.faults.rewriteAnswers('/instance/list', (answer) => ({
    ...answer,
    pager: { ...answer.pager, totalEntries: 1_000_000_000 }
  }))
  await signIn(page, shell.url)
  await expect(page.getByRole('row', { name: /real-3/ })).toBeVisible()

  upstream.control.resetRequestCount()
  await page.getByRole('button', { name: 'Refresh', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Refresh', exact: true })).toBeEnabled()
  // The first short page ends the list: one request, or one wave of pages at most.
  expect(upstream.control.requestCount()).toBeLessThanOrEqual(5)
  // Polls that follow ask once each: the total they guess from is what was seen, 3.
  upstream.control.resetRequestCount()
  await tick(clock, 65_000, 1_000)
  expect(upstream.control.requestCount()).toBeGreaterThan(0)
  expect(upstream.control.requestCount()).toBeLessThanOrEqual(3)
  await expect(page.getByRole('row', { name: /real-/ })).toHaveCount(3)
  await expect(page.getByText('3 instances', { exact: true })).toBeVisible()
})

test('#12 item 7: instances, ports and volumes listed twice: every view still opens, each shown once, and it says so', async ({
  page,
  shell,
  upstream
}) => {
  await upstream.control.seedInstances('demo', 2, { name: 'dup' })
  await otherClient(
    upstream,
    '/storage/volume/create',
    JSON.stringify({ name: 'shared', sizeGB: 50, region: REGION, volumeType: 'filesystem' })
  )
  upstream.control.faults.rewriteAnswers('/instance/list', (answer) => {
    const doubled = answer.instances.map((instance: any) => ({
      ...instance,
      instanceSpecInfo: {
        ...instance.instanceSpecInfo,
        nodePorts: [...instance.instanceSpecInfo.nodePorts, ...instance.instanceSpecInfo.nodePorts]
      }
    }))
    return { ...answer, instances: [...doubled, ...doubled] }
  })
  upstream.control.faults.rewriteAnswers('/storage/volume/list', (answer) => ({ volumeList: [...answer.volumeList, ...answer.volumeList] }))
  await signIn(page, shell.url)

  // The live list: each instance once.
  await expect(page.getByRole('row', { name: /dup-1/ })).toHaveCount(1)
  await expect(page.getByRole('row', { name: /dup-2/ })).toHaveCount(1)

  // The detail panel opens, with each port once and a word about the repeats.
  await page.getByRole('button', { name: 'Details of dup-1' }).click()
  await expect(details(page).getByRole('heading', { name: 'dup-1' })).toBeVisible()
  await expect(details(page).getByRole('row', { name: /^22 \(SSH\)/ })).toHaveCount(1)
  await expect(details(page).getByText('The service listed one port more than once; it is shown once.')).toBeVisible()
  await details(page).getByRole('button', { name: 'Close details' }).click()

  // The server's own pages: rows, and the note.
  await page.getByLabel('Per page').selectOption('20')
  await expect(page.getByRole('row', { name: /dup-1/ })).toHaveCount(1)
  await expect(page.getByRole('row', { name: /dup-2/ })).toHaveCount(1)
  await expect(
    page.getByRole('status').filter({ hasText: 'The service listed 2 instances more than once; each is shown once.' })
  ).toBeVisible()

  // Volumes.
  await mainNav(page).getByRole('button', { name: 'Volumes' }).click()
  await expect(page.getByRole('row', { name: /shared/ })).toHaveCount(1)
  await expect(
    page.getByRole('status').filter({ hasText: 'The service listed one volume more than once; it is shown once.' })
  ).toBeVisible()
  await captureScreen(page, 'volumes-repeated')
})

test('#12 item 11: an IPv6 port address, bare or bracketed, opens as http://[::1]:N', async ({ page, shell, upstream }) => {
  await otherClient(
    upstream,
    '/instance/create',
    JSON.stringify(emulatorCreateRequest({ name: 'six', instanceTypeId: TYPE, nodePorts: [8888, 6006] }))
  )
  const id = upstream.control.instances('demo')[0]!.instanceMetadata.instanceId
  upstream.control.setStatus(id, 'Running')
  upstream.control.faults.rewriteAnswers('/instance/list', (answer) => ({
    ...answer,
    instances: answer.instances.map((instance: any) => ({
      ...instance,
      instanceSpecInfo: {
        ...instance.instanceSpecInfo,
        nodePorts: instance.instanceSpecInfo.nodePorts.map((entry: any) => ({ ...entry, address: entry.port === 8888 ? '::1' : '[::1]' }))
      }
    }))
  }))
  await signIn(page, shell.url)
  const ports = upstream.control.instances('demo')[0]!.instanceSpecInfo.nodePorts
  const nodePort = (port: number) => ports.find((entry) => entry.port === port)!.nodePort
  await page.getByRole('button', { name: 'Ports six' }).click()
  const dialog = page.getByRole('dialog', { name: 'Ports of six' })
  await expect(dialog.getByText(`http://[::1]:${nodePort(8888)}`, { exact: true })).toBeVisible()
  await expect(dialog.getByText(`http://[::1]:${nodePort(6006)}`, { exact: true })).toBeVisible()
  await dialog.getByRole('button', { name: 'Open port 8888 in browser' }).click()
  await expect
    .poll(() => shell.recorded())
    .toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'external-url', detail: `http://[::1]:${nodePort(8888)}/` })]))
})

test('#12 item 8: a volume create whose answer is lost is reported as created, once, never "choose a different name"', async ({
  page,
  shell,
  upstream,
  lossy
}) => {
  await signIn(page, shell.url)
  await mainNav(page).getByRole('button', { name: 'Volumes' }).click()
  await page.getByRole('button', { name: 'New volume', exact: true }).first().click()
  await page.getByLabel('Volume name').fill('datasets')
  await page.getByLabel('Size (GB)').fill('200')
  await page.getByLabel('Region', { exact: true }).selectOption(REGION)
  lossy.loseAnswers('/storage/volume/create', 1)
  await page.getByRole('button', { name: 'Create volume' }).click()

  await expect(page.getByRole('heading', { name: 'Volumes', exact: true })).toBeVisible()
  await expect(page.getByRole('row', { name: /datasets/ })).toHaveCount(1)
  await expect(page.getByText(/already exists/i)).toHaveCount(0)
  expect(upstream.control.volumes('demo').map((v) => v.volumeName)).toEqual(['datasets'])
  expect(lossy.forwarded('/api/storage/volume/create')).toBe(1)
})

test('#12 item 9: our create never arrived and another client made a look-alike: not claimed; the user opens it or creates anyway', async ({
  page,
  shell,
  upstream,
  lossy,
  clock
}) => {
  await signIn(page, shell.url)
  await page.keyboard.press('Control+N')
  await page.getByLabel('Name', { exact: true }).fill('twin')
  await chooseLaunch(page, { type: TYPE_CHOICE, image: IMAGE })
  const create = { click: () => launchReviewed(page) }

  // The request never reaches the cloud: the app cannot know, and says so.
  lossy.dropRequests('/instance/create', 1)
  await create.click()
  await expect(page.getByRole('alert').first()).toBeVisible()
  expect(upstream.control.instances('demo')).toHaveLength(0)

  // A minute later another client makes exactly the instance this form describes.
  await tick(clock, 60_000, 1_000)
  const theirs = (await otherClient(upstream, '/instance/create', lossy.lastBody('/api/instance/create')!)).instanceId as string

  // The retry does not claim it: it asks.
  await create.click()
  const question = page.getByRole('alert').filter({ hasText: 'cannot tell whether your create made it' })
  await expect(question).toBeVisible()
  await expect(question).toContainText('“twin”')
  await captureScreen(page, 'create-maybe-created')
  await expect(details(page)).toHaveCount(0)
  // Asking again sends nothing behind the user's back.
  await create.click()
  await expect(question).toBeVisible()
  expect(lossy.forwarded('/api/instance/create')).toBe(0)

  // "Create anyway": one create goes out, and the app shows the new instance, not theirs.
  await question.getByRole('button', { name: 'Create anyway' }).click()
  await expect(details(page).getByRole('heading', { name: 'twin' })).toBeVisible()
  const twins = upstream.control.instances('demo').filter((i) => i.instanceSpecInfo.name === 'twin')
  expect(twins).toHaveLength(2)
  expect(lossy.forwarded('/api/instance/create')).toBe(1)
  const mine = twins.find((i) => i.instanceMetadata.instanceId !== theirs)!
  await expect(details(page).getByText(mine.instanceMetadata.instanceId, { exact: true })).toBeVisible()
})
