/**
 * The page's Content-Security-Policy has one source (src/shared/content-security-policy.ts): the
 * header the app:// scheme sends and the meta tag the build writes are the same policy, so the
 * copy that applies is never the weaker one (the review's P4: the file:// page's header was a
 * no-op and its meta tag differed).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CSP_PLACEHOLDER, pagePolicy } from '../electron.vite.config'
import { parsePolicy } from '../src/shared/content-security-policy'
import { APP_PAGE_POLICY } from '../src/main/windows/app-protocol'
import { metaPolicies } from './electron-stand-in/runtime/page-policy'

const INDEX = readFileSync(join(import.meta.dirname, '..', 'src', 'renderer', 'index.html'), 'utf8')

function built(shell: 'electron' | 'web', server = false): string {
  const hook = pagePolicy(shell).transformIndexHtml as (html: string, context: unknown) => string
  return hook(INDEX, server ? { server: {} } : {})
}

describe("the page's Content-Security-Policy", () => {
  it('index.html takes its policy from the build, not from a hand-written copy', () => {
    expect(INDEX).toContain(CSP_PLACEHOLDER)
    expect(metaPolicies(INDEX)).toEqual([CSP_PLACEHOLDER])
  })

  it("Electron's page: the meta tag is the app:// header, directive for directive (less frame-ancestors, which a meta tag cannot carry)", () => {
    const [meta] = metaPolicies(built('electron'))
    const header = parsePolicy(APP_PAGE_POLICY)
    header.delete('frame-ancestors')
    expect(parsePolicy(meta!)).toEqual(header)
    expect(APP_PAGE_POLICY).toMatch(/connect-src 'self';/)
    expect(APP_PAGE_POLICY).toContain("frame-src 'none'")
  })

  it("the web shell's page adds only its loopback socket", () => {
    const [meta] = metaPolicies(built('web'))
    const expected = parsePolicy(APP_PAGE_POLICY)
    expected.delete('frame-ancestors')
    expected.set('connect-src', ["'self'", 'ws://127.0.0.1:*'])
    expect(parsePolicy(meta!)).toEqual(expected)
  })

  it('the dev server page adds its HMR socket, nothing else', () => {
    const connect = parsePolicy(metaPolicies(built('electron', true))[0]!).get('connect-src')
    expect(connect).toEqual(["'self'", 'ws://localhost:*', 'ws://127.0.0.1:*'])
  })
})
