import { describe, expect, it } from 'vitest'
import { loadFailureMessage, loadFailurePage } from './load-failure-page'

describe('loadFailureMessage', () => {
  it.each([
    ['ERR_CERT_AUTHORITY_INVALID', /certificate is not one Cloud Tray trusts/],
    ['ERR_CERT_COMMON_NAME_INVALID', /certificate/],
    ['ERR_CONNECTION_REFUSED', /Nothing answers/],
    ['ERR_NAME_NOT_RESOLVED', /network connection/],
    ['ERR_TIMED_OUT', /did not answer in time/],
    ['ERR_SOMETHING_NEW', /could not be loaded/],
    [undefined, /could not be loaded/]
  ])('%s → %s', (code, message) => expect(loadFailureMessage(code)).toMatch(message))
})

describe('loadFailurePage', () => {
  it('escapes the instance name and names what to do', () => {
    const page = loadFailurePage('<img src=x onerror=alert(1)>', 'ERR_CONNECTION_REFUSED')
    expect(page).not.toContain('<img')
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(page).toContain('open the notebook again')
    expect(page).toContain("default-src 'none'")
  })
})
