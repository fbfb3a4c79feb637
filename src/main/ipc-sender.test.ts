import { describe, expect, it } from 'vitest'
import { isTrustedSender, type SenderInfo, type TrustedRenderer } from './ipc-sender'

const built: TrustedRenderer = {
  webContentsIds: new Set([1]),
  fileUrl: 'file:///opt/Cloud%20Tray/resources/app.asar/out/renderer/index.html'
}
const dev: TrustedRenderer = { webContentsIds: new Set([1]), devOrigin: 'http://localhost:5173' }
const from = (url: string | undefined, extra: Partial<SenderInfo> = {}): SenderInfo => ({
  webContentsId: 1,
  isMainFrame: true,
  url,
  ...extra
})

describe('isTrustedSender', () => {
  it.each<[string, SenderInfo, TrustedRenderer, boolean]>([
    ['our built page', from('file:///opt/Cloud%20Tray/resources/app.asar/out/renderer/index.html'), built, true],
    [
      'our built page with a hash route',
      from('file:///opt/Cloud%20Tray/resources/app.asar/out/renderer/index.html#/settings'),
      built,
      true
    ],
    ['another local file', from('file:///tmp/evil.html'), built, false],
    ['a web page in our window', from('https://evil.example/'), built, false],
    [
      'an iframe inside our page',
      from('file:///opt/Cloud%20Tray/resources/app.asar/out/renderer/index.html', { isMainFrame: false }),
      built,
      false
    ],
    [
      'another webContents (a notebook window)',
      from('file:///opt/Cloud%20Tray/resources/app.asar/out/renderer/index.html', { webContentsId: 7 }),
      built,
      false
    ],
    ['a frame that is gone', from(undefined), built, false],
    ['not a URL', from('::::'), built, false],
    ['dev server page', from('http://localhost:5173/'), dev, true],
    ['dev server route', from('http://localhost:5173/#/instances'), dev, true],
    ['another port on localhost', from('http://localhost:5174/'), dev, false],
    ['a file while developing', from('file:///tmp/x.html'), dev, false]
  ])('%s → %s', (_name, sender, trusted, expected) => {
    expect(isTrustedSender(sender, trusted)).toBe(expected)
  })
})
