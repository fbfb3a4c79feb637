/**
 * #24, the create form and its review as a new user meets them: limits said at the field (the
 * sizes no disk can have before the review; the cloud's own limits, every field it refused at
 * once, in the form's words, with the input kept), a review listing everything that will be
 * sent, the cost compared with the balance, and spot as a property of the type.
 */
import { chooseLaunch } from './launch-helpers'
import { expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })

const IMAGE = 'img-pytorch-2.5-cuda12.4'
const A100 = /^1 × A100-PCIE-80GB /

test('limits are said at the field: before the review when no disk could be that big, and all at once when the cloud refuses', async ({
  page,
  shell
}) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  const longName = 'n'.repeat(500)
  await page.getByLabel('Name', { exact: true }).fill(longName)
  await chooseLaunch(page, { type: A100, image: IMAGE })
  await page.getByLabel('Docker', { exact: true }).check()
  const docker = page.getByLabel('Docker storage (GB)')
  await docker.fill('1e20')
  const disk = page.getByLabel('Extra data disk (GB)')
  await disk.fill('10.5')
  await page.getByRole('button', { name: 'Create instance' }).click()
  // Refused at the field, before any review.
  await expect(docker).toHaveAttribute('aria-invalid', 'true')
  await expect(docker).toHaveAccessibleDescription(/No disk is that big/)
  await expect(disk).toHaveAccessibleDescription(/whole gigabytes/)
  await expect(page.getByRole('dialog', { name: 'Review and launch' })).toBeHidden()

  // Sizes a disk can have, beyond the cloud's own limit (known only from its answer), and the long name.
  await docker.fill('200000')
  await disk.fill('150000')
  await page.getByRole('button', { name: 'Create instance' }).click()
  const review = page.getByRole('dialog', { name: 'Review and launch' })
  await review.getByRole('button', { name: 'Launch' }).click()
  await expect(review).toBeHidden()

  // One answer, every field it names, each in the form's words; nothing typed is lost.
  const name = page.getByLabel('Name', { exact: true })
  await expect(name).toHaveAttribute('aria-invalid', 'true')
  await expect(name).toHaveAccessibleDescription(/The cloud takes at most 128 characters here; shorten it\.$/)
  await expect(disk).toHaveAccessibleDescription(/The cloud takes 0 to 100000 GB here\.$/)
  await expect(docker).toHaveAccessibleDescription(/The cloud takes 0 to 100000 GB here\.$/)
  await expect(name).toBeFocused()
  await expect(name).toHaveValue(longName)
  await expect(docker).toHaveValue('200000')
  await expect(disk).toHaveValue('150000')
  expect(shell.emulator().instances('demo')).toHaveLength(0)
})

test('the review lists everything that will be sent', async ({ page, shell }) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  await page.getByLabel('Name', { exact: true }).fill('everything')
  await chooseLaunch(page, { type: A100, image: IMAGE })
  await page.getByLabel('Extra data disk (GB)').fill('200')
  await page.getByLabel('Common data', { exact: true }).check()
  await page.getByLabel('Docker', { exact: true }).check()
  await page.getByLabel('Docker storage (GB)').fill('50')
  await page.getByLabel('Init script').fill('#!/bin/sh\napt-get update\npip install vllm\necho one\necho two\n')
  await page.getByRole('button', { name: 'Create instance' }).click()

  const review = page.getByRole('dialog', { name: 'Review and launch' })
  const line = (label: string) => review.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('+ dd')
  await expect(line('Name')).toHaveText('everything')
  await expect(line('Data disk')).toHaveText("200 GB, besides the type's own disk")
  await expect(line('Docker')).toHaveText('On, with 50 GB of storage')
  await expect(line('Common data')).toHaveText("On: the provider's shared datasets are mounted")
  await expect(line('Init script')).toHaveText('#!/bin/sh\napt-get update\npip install vllm\n… and 2 more lines')
  await expect(line('Remote storage')).toHaveText('None')
  await expect(line('Published ports')).toHaveText('None besides SSH (22)')
  await review.getByRole('button', { name: 'Launch' }).click()
  await expect(page.getByRole('row', { name: /everything/ })).toBeVisible()
  // What the review said is what was sent.
  const [sent] = shell.emulator().instances('demo')
  expect(sent!.instanceSpecInfo.instanceConfiguration).toMatchObject({ enableCommonData: true, enableDocker: true, dockerStorageSize: 50 })
})

test('the review says how long the balance lasts, and warns before Launch when the plan costs more than the balance', async ({
  page,
  shell
}) => {
  shell.emulator().setBalance('demo', { balance: 105, voucher: 0, credit: 0 })
  await signIn(page, shell)
  await expect(page.getByRole('status', { name: 'Balance' })).toContainText('$105.00')
  await page.keyboard.press('Control+N')
  await page.getByLabel('Name', { exact: true }).fill('week-of-training')
  await chooseLaunch(page, { type: A100, image: IMAGE })
  await page.getByLabel('Billing mode').selectOption('perDay')
  await page.getByLabel(/^Duration/).fill('6')
  await page.getByRole('button', { name: 'Create instance' }).click()

  const review = page.getByRole('dialog', { name: 'Review and launch' })
  // 6 days of an A100 at $38.66 a day: $231.96, against $105.
  await expect(review.getByRole('note', { name: 'Cost' })).toContainText('$38.66 per day × 6 days = $231.96')
  await expect(review.getByRole('note', { name: 'Balance' })).toContainText('Your balance of $105.00 lasts ≈ 65 h at this price')
  await expect(review.getByRole('alert', { name: 'Balance warning' })).toHaveText(
    'This plan costs $231.96, more than your balance of $105.00. Top up first, or choose a shorter plan or a cheaper type.'
  )

  // A plan the balance covers: no warning.
  await review.getByRole('button', { name: 'Back to the form' }).click()
  await page.getByLabel(/^Duration/).fill('2')
  await page.getByRole('button', { name: 'Create instance' }).click()
  await expect(review.getByRole('note', { name: 'Balance' })).toBeVisible()
  await expect(review.getByRole('alert', { name: 'Balance warning' })).toHaveCount(0)
})

test('spot is the type: one control, and the price shown is the price charged', async ({ page, shell }) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  await expect(page.getByRole('checkbox', { name: /spot/i })).toHaveCount(0)
  await page.getByLabel('Name', { exact: true }).fill('cheap-spot')
  await chooseLaunch(page, { type: /^1 × RTX-4090-SPOT /, image: IMAGE })
  await expect(page.getByRole('radio', { name: /^1 × RTX-4090-SPOT / })).toHaveAccessibleName(/\$0\.25 \/ hour/)
  await page.getByRole('button', { name: 'Create instance' }).click()
  const review = page.getByRole('dialog', { name: 'Review and launch' })
  await expect(review.getByRole('note', { name: 'Cost' })).toContainText('$0.25 per hour')
  await expect(review.getByRole('note', { name: 'Spot risk' })).toBeVisible()
  await review.getByRole('button', { name: 'Back to the form' }).click()

  // An on-demand type is never spot, whatever was asked before.
  await page.getByRole('radio', { name: /^1 × RTX-4090 / }).check()
  await page.getByRole('button', { name: 'Create instance' }).click()
  await expect(review.getByRole('note', { name: 'Cost' })).toContainText('$0.49 per hour')
  await expect(review.getByRole('note', { name: 'Spot risk' })).toHaveCount(0)
  await review.getByRole('button', { name: 'Launch' }).click()
  await expect(page.getByRole('row', { name: /cheap-spot/ })).toBeVisible()
  const [created] = shell.emulator().instances('demo')
  expect(created!.instanceSpecInfo.isSpotInstance).toBe(false)
  expect(created!.instanceSpecInfo.instanceBillingInfo.price).toBe(0.49)
})
