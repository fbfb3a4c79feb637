import { describe, expect, it } from 'vitest'
import {
  contentSecurityPolicy,
  mainWindowNavigation,
  permissionDecision,
  windowOpenDecision,
  type AppPage,
  type NavigationDecision
} from './navigation-policy'

const PAGE = 'app://cloud-tray/index.html'
const built: AppPage = { pageUrl: PAGE }
const dev: AppPage = { devOrigin: 'http://localhost:5173' }

describe('main window navigation', () => {
  it.each<[string, string, AppPage, NavigationDecision]>([
    ['our page (reload)', PAGE, built, 'allow'],
    ['our page, hash route', `${PAGE}#/x`, built, 'allow'],
    ['a script of ours as a document', 'app://cloud-tray/assets/index.js', built, 'deny'],
    ['another host on our scheme', 'app://other/index.html', built, 'deny'],
    ['the built file itself (file://)', 'file:///opt/cloud-tray/resources/app.asar/out/renderer/index.html', built, 'deny'],
    ['another file', 'file:///etc/passwd', built, 'deny'],
    ['a web link', 'https://hpc-ai.com/docs', built, 'open-external'],
    ['plain http link', 'http://127.0.0.1:30888/', built, 'open-external'],
    ['link with credentials', 'https://user:pw@example.com/', built, 'deny'],
    ['javascript:', 'javascript:alert(1)', built, 'deny'],
    ['data:', 'data:text/html,<script>1</script>', built, 'deny'],
    ['custom scheme', 'ms-settings:privacy', built, 'deny'],
    ['dev server page', 'http://localhost:5173/', dev, 'allow'],
    ['another local server while developing', 'http://localhost:8080/', dev, 'open-external'],
    ['garbage', 'not a url', built, 'deny']
  ])('%s', (_name, url, app, expected) => {
    expect(mainWindowNavigation(url, app)).toBe(expected)
  })

  it.each<[string, string]>([
    ['https://example.com/', 'open-external'],
    ['file:///etc/passwd', 'deny'],
    ['about:blank', 'deny']
  ])('window.open(%s) → %s, never a new window', (url, expected) => {
    expect(windowOpenDecision(url)).toBe(expected)
  })

  it.each<[string, string, boolean]>([
    ['clipboard-sanitized-write', PAGE, true],
    ['clipboard-sanitized-write', 'https://evil.example/', false],
    // The app's downloads are written by main (disk-sink.ts): the page asks no file access.
    ['fileSystem', PAGE, false],
    ['fileSystem', 'https://evil.example/', false],
    ['clipboard-sanitized-write', 'file:///opt/cloud-tray/resources/app.asar/out/renderer/index.html', false],
    ['clipboard-sanitized-write', 'app://evil/index.html', false],
    ['media', PAGE, false],
    ['geolocation', PAGE, false],
    ['notifications', PAGE, false]
  ])('permission %s from %s → %s', (permission, url, expected) => {
    expect(permissionDecision(permission, url, built)).toBe(expected)
  })

  it('CSP: scripts only from us, no plugins, frames, or foreign forms', () => {
    const csp = contentSecurityPolicy(built)
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe/)
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(contentSecurityPolicy(dev)).toContain("connect-src 'self' ws://localhost:5173")
  })
})
