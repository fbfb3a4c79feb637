/**
 * Checklist items 13, 14 and 18 (limit navigation, limit new windows, avoid file://) beyond what
 * Electronegativity sees:
 *   - the policies, property-based: no window ever goes to a file: URL other than the app's own
 *     page, nothing that is not http(s) is ever handed to the OS browser, and the one other kind
 *     of link the OS gets (an editor's Remote-SSH link) passes only in editorUrl's exact shape;
 *   - their reach, by source scan: every file that creates a BrowserWindow also guards
 *     will-navigate, will-redirect and window.open on it, nothing loads a file: URL by hand, and
 *     `shell.openExternal` is called only behind checkExternalUrl or checkEditorUrl.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mainWindowNavigation, windowOpenDecision, type AppPage } from '../src/main/windows/navigation-policy'
import { notebookNavigation } from '../src/main/notebook/navigation-policy'
import { checkEditorUrl } from '../src/main/ssh/config/editors'

const PAGE = 'app://cloud-tray/index.html'
const built: AppPage = { pageUrl: PAGE }
const dev: AppPage = { devOrigin: 'http://localhost:5173' }

const filePath = fc
  .array(fc.stringMatching(/^[A-Za-z0-9._%-]{1,12}$/), { minLength: 1, maxLength: 6 })
  .map((parts) => `/${parts.join('/')}`)
const otherFileUrl = fc.tuple(filePath, fc.constantFrom('', '?x=1', '#/route')).map(([path, suffix]) => `file://${path}${suffix}`)

const nonWebUrl = fc.oneof(
  otherFileUrl,
  fc.constantFrom(
    'javascript:alert(1)',
    'data:text/html,<script>1</script>',
    'vbscript:x',
    'smb://host/share',
    'ms-settings:privacy',
    'x-cloud-tray://evil',
    'file://server/share/index.html',
    'chrome://settings',
    'devtools://devtools/bundled/inspector.html'
  )
)

describe('navigation policies', () => {
  it('never let the app window go to any file, in production or development', () => {
    fc.assert(
      fc.property(otherFileUrl, fc.constantFrom(built, dev), (url, page) => mainWindowNavigation(url, page) === 'deny'),
      { numRuns: 300 }
    )
  })

  it('never hand anything but http(s) to the OS, from any window', () => {
    fc.assert(
      fc.property(nonWebUrl, fc.stringMatching(/^[a-z0-9-]{1,20}$/), (url, host) => {
        const notebookOrigin = `https://${host}.notebook.example`
        return (
          mainWindowNavigation(url, built) !== 'open-external' &&
          windowOpenDecision(url) === 'deny' &&
          notebookNavigation(notebookOrigin, url) === 'deny'
        )
      }),
      { numRuns: 300 }
    )
  })

  it('hand the OS no editor link but a Remote-SSH one to a plain alias', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          nonWebUrl,
          fc.webUrl(),
          fc.string().map((tail) => `vscode://${tail}`),
          fc.string().map((tail) => `cursor://vscode-remote/${tail}`)
        ),
        (url) => {
          let passed: string | undefined
          try {
            passed = checkEditorUrl(url)
          } catch {
            return true
          }
          return /^(vscode|cursor):\/\/vscode-remote\/ssh-remote\+[A-Za-z0-9._-]+(\/[^\s/?#]*)*$/.test(passed)
        }
      ),
      { numRuns: 500 }
    )
  })

  it('allow exactly the app’s own page in the app window', () => {
    expect(mainWindowNavigation(PAGE, built)).toBe('allow')
    expect(mainWindowNavigation(`${PAGE}#/settings`, built)).toBe('allow')
    expect(mainWindowNavigation(PAGE.replace('index.html', 'index.html.evil'), built)).toBe('deny')
    expect(mainWindowNavigation('app://cloud-tray.evil/index.html', built)).toBe('deny')
    expect(mainWindowNavigation('file:///etc/passwd', built)).toBe('deny')
  })
})

describe('where the policies are applied', () => {
  const root = join(import.meta.dirname, '..', 'src', 'main')
  const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }))
  const guardsEveryWindow = sources.some(
    ({ text }) => /web-contents-created/.test(text) && /will-navigate/.test(text) && /setWindowOpenHandler/.test(text)
  )

  it('guards navigation and new windows wherever a BrowserWindow is created', () => {
    const unguarded = sources
      .filter(({ text }) => /new\s+BrowserWindow\s*\(/.test(text))
      .filter(
        ({ text }) => !(/['"]will-navigate['"]/.test(text) && /['"]will-redirect['"]/.test(text) && /setWindowOpenHandler/.test(text))
      )
      .map(({ file }) => file)
    expect(guardsEveryWindow || unguarded.length === 0, `windows without navigation guards: ${unguarded.join(', ')}`).toBe(true)
  })

  it('calls shell.openExternal only behind checkExternalUrl or checkEditorUrl', () => {
    const calls = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/shell\.openExternal\(([^)]*)\)/g)].map((match) => ({ file, argument: match[1] ?? '' }))
    )
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.filter(({ argument }) => !/^check(External|Editor)Url\(/.test(argument))).toEqual([])
  })

  it('never loads a file: page (the app window is served from app://, checklist item 18)', () => {
    const offenders = sources
      .filter(({ text }) => /\.loadFile\(|loadURL\(\s*['"`]file:|loadURL\(\s*pathToFileURL/.test(text))
      .map(({ file }) => file)
    expect(offenders).toEqual([])
  })
})
