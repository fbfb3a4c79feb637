/**
 * Filling the create form the way a person does since #15: the region by name, the type by its
 * GPU in the picker, the image from the list (by its id or label) or as another image id; and
 * launching through the review step.
 */
import { expect, type Page } from '@playwright/test'

export interface LaunchChoice {
  /** The type picker's radio, by its accessible name (e.g. /^1 × A100-PCIE-80GB /). */
  type: RegExp
  /** An image the form lists (its id or label), or any other id (typed as "Another image id…"). */
  image: string
  /** The region's name in the feed (e.g. `us-west-1`); absent: the one preselected. */
  region?: string
}

export async function chooseLaunch(page: Page, choice: LaunchChoice): Promise<void> {
  if (choice.region) await page.getByLabel('Region', { exact: true }).selectOption({ label: choice.region })
  await page.getByRole('radio', { name: choice.type }).check()
  const images = page.getByLabel('Image', { exact: true })
  // No image listed yet (a cloud other than the Sandbox, first launch): the field is a text box.
  if ((await images.evaluate((element) => element.tagName)) === 'INPUT') {
    await images.fill(choice.image)
    return
  }
  const listed = await images
    .locator('option')
    .evaluateAll(
      (options, wanted) => options.some((o) => (o as HTMLOptionElement).value === wanted || o.textContent?.trim() === wanted),
      choice.image
    )
  if (listed) {
    await images.selectOption(choice.image)
    return
  }
  await images.selectOption({ label: 'Another image id…' })
  await page.getByLabel('Image id', { exact: true }).fill(choice.image)
}

/** The form still holds this launch (after a fault, a re-login, navigating away). */
export async function expectLaunchKept(page: Page, name: string, choice: LaunchChoice): Promise<void> {
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name)
  await expect(page.getByRole('radio', { name: choice.type })).toBeChecked()
  const images = page.getByLabel('Image', { exact: true })
  if (
    (await images.evaluate((element) => element.tagName)) === 'SELECT' &&
    !(await images.locator(`option[value="${choice.image}"]`).count())
  ) {
    await expect(page.getByLabel('Image id', { exact: true })).toHaveValue(choice.image)
  } else {
    await expect(images).toHaveValue(choice.image)
  }
}

/** Create → the review step → Launch; answers the review dialog (closed once launched). */
export async function launchReviewed(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Create instance' }).click()
  const review = page.getByRole('dialog', { name: 'Review and launch' })
  await expect(review).toBeVisible()
  await review.getByRole('button', { name: 'Launch' }).click()
}

/** Adds a storage to mount with the form's "Add storage" (the Nth group, counting from 1). */
export async function addStorage(page: Page, storage: { mountPath: string; name: string; id: string }, nth = 1): Promise<void> {
  await page.getByRole('button', { name: 'Add storage' }).click()
  const group = page.getByRole('group', { name: `Storage ${nth}` })
  await group.getByLabel('Mount path').fill(storage.mountPath)
  await group.getByLabel('Storage name').fill(storage.name)
  await group.getByLabel('Storage id').fill(storage.id)
}

/** Adds a node port with the ports field's Enter. */
export async function addPort(page: Page, port: string): Promise<void> {
  const ports = page.getByLabel('Ports to publish')
  await ports.fill(port)
  await ports.press('Enter')
}
