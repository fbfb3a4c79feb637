import { describe, expect, it } from 'vitest'
import { openingPage } from './opening-page'

describe('openingPage', () => {
  it('names the instance (escaped), says what is happening and what to do, and runs nothing', () => {
    const page = openingPage('<img src=x onerror=alert(1)>')
    expect(page).not.toContain('<img')
    expect(page).toContain('Opening the notebook of &lt;img src=x onerror=alert(1)&gt;')
    expect(page).toContain('Waiting for the notebook server')
    expect(page).toContain('check its status in Cloud Tray')
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`)
    expect(page).not.toMatch(/<script|<a\s|<form|<iframe|<img|<link|https?:/i)
  })
})
