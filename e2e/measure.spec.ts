import { expect, signIn, test } from './web-fixture'
test('measure', async ({ page, shell }) => {
  const emulator = shell.emulator()
  for (const status of ['PullingImage', 'InitializationFailed', 'Running']) {
    const [id] = await emulator.seedInstances('demo', 1, { name: `s-${status}` })
    emulator.setStatus(id!, status)
  }
  await signIn(page, shell)
  await expect(page.getByText('Downloading image', { exact: true })).toBeVisible()
  await page.addStyleTag({ content: '.table { --status: 20rem !important; --actions: 30rem !important; --price: 10rem !important; --uptime: 10rem !important }' })
  const m = await page.evaluate(() => {
    const px = (e: Element) => Math.ceil(e.getBoundingClientRect().width)
    const pills = [...document.querySelectorAll('.status.pill')].map(px)
    const acts = [...document.querySelectorAll('.row:not(.head) .c-actions')].map((e) => [...e.children].reduce((a, c) => a + px(c), 0) + 3 * (e.children.length - 1))
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize)
    const heads = [...document.querySelectorAll('[role=columnheader]')].map((e) => { const r = document.createRange(); r.selectNodeContents(e); return [e.textContent, Math.ceil(r.getBoundingClientRect().width)] })
    return { rem, pills, acts, heads }
  })
  console.log(JSON.stringify(m))
})
