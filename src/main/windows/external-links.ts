/**
 * Which links may leave the app for the user's browser: the one rule for the window's own links
 * (`external.open`), a notebook page's links (notebook/notebook-window-adapter.ts) and the app
 * window's `window.open` (main-window-adapter.ts). Pure: no Electron here.
 */
import { AppError } from '../app-error'

/** Only http(s) links leave the app: file:, javascript:, custom schemes could run things. */
export function checkExternalUrl(input: string): string {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    throw new AppError('bad-input', 'That link is not a valid web address.', { field: 'url' })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('not-allowed', 'Only http and https links can be opened.', { field: 'url' })
  }
  if (url.username || url.password) {
    throw new AppError('not-allowed', 'Links that carry a user name or password are not opened.', { field: 'url' })
  }
  return url.toString()
}
