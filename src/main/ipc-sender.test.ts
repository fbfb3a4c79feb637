import { describe, expect, it } from 'vitest'
import { isTrustedSender, type SenderInfo, type TrustedRenderer } from './ipc-sender'

const PAGE = 'app://cloud-tray/index.html'
const built: TrustedRenderer = { webContentsIds: new Set([1]), pageUrl: PAGE }
const dev: TrustedRenderer = { webContentsIds: new Set([1]), devOrigin: 'http://localhost:5173' }
const from = (url: string | undefined, extra: Partial<SenderInfo> = {}): SenderInfo => ({
  webContentsId: 1,
  isMainFrame: true,
  url,
  ...extra
})

describe('isTrustedSender', () => {
  it.each<[string, SenderInfo, TrustedRenderer, boolean]>([
    ['our built page', from(PAGE), built, true],
    ['our built page with a hash route', from(`${PAGE}#/settings`), built, true],
    ['another document on our scheme', from('app://cloud-tray/assets/index.js'), built, false],
    ['another host on our scheme', from('app://evil/index.html'), built, false],
    ['another scheme, same host and path', from('evil://cloud-tray/index.html'), built, false],
    ['our built page as a file (the old way)', from('file:///opt/Cloud%20Tray/resources/app.asar/out/renderer/index.html'), built, false],
    ['another local file', from('file:///tmp/evil.html'), built, false],
    ['a web page in our window', from('https://evil.example/'), built, false],
    ['an iframe inside our page', from(PAGE, { isMainFrame: false }), built, false],
    ['another webContents (a notebook window)', from(PAGE, { webContentsId: 7 }), built, false],
    ['a frame that is gone', from(undefined), built, false],
    ['not a URL', from('::::'), built, false],
    ['dev server page', from('http://localhost:5173/'), dev, true],
    ['dev server route', from('http://localhost:5173/#/instances'), dev, true],
    ['another port on localhost', from('http://localhost:5174/'), dev, false],
    ['a file while developing', from('file:///tmp/x.html'), dev, false],
    ['our scheme while developing (not the page then)', from(PAGE), dev, false]
  ])('%s → %s', (_name, sender, trusted, expected) => {
    expect(isTrustedSender(sender, trusted)).toBe(expected)
  })
})
