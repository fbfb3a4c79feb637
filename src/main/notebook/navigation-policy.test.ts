import { describe, expect, it } from 'vitest'
import { notebookNavigation, type NavigationDecision } from './navigation-policy'

const FROM = 'https://127.0.0.1:40123'

describe('notebookNavigation', () => {
  const table: [string, NavigationDecision][] = [
    // same origin stays
    ['https://127.0.0.1:40123/notebook/inst-1/', 'allow'],
    ['https://127.0.0.1:40123/notebook/inst-1/tree?x=1#cell-3', 'allow'],
    ['https://127.0.0.1:40123/', 'allow'],
    ['about:blank', 'allow'],
    ['about:srcdoc', 'allow'],
    // elsewhere on the web: the system browser
    ['https://hpc-ai.com/docs', 'external'],
    ['http://example.com/', 'external'],
    ['http://127.0.0.1:40123/notebook/inst-1/', 'external'], // another scheme is another origin
    ['https://127.0.0.1:40124/', 'external'], // another port too
    ['https://127.0.0.1:40123.attacker.example/', 'deny'], // not even a valid host: port with a dot
    ['https://127.0.0.1.attacker.example:40123/', 'external'], // a look-alike is elsewhere, never "same"
    // refused
    ['https://user:secret@example.com/', 'deny'],
    ['file:///etc/passwd', 'deny'],
    ['javascript:alert(1)', 'deny'],
    ['data:text/html,<script>alert(1)</script>', 'deny'],
    ['vscode://file/etc/passwd', 'deny'],
    ['ms-settings:privacy', 'deny'],
    ['ssh://root@example.com', 'deny'],
    ['mailto:someone@example.com', 'deny'],
    ['about:config', 'deny'],
    ['not a url', 'deny'],
    ['', 'deny']
  ]
  it.each(table)('%s → %s', (target, expected) => expect(notebookNavigation(FROM, target)).toBe(expected))

  it('denies everything when the window’s own origin is unreadable', () => {
    expect(notebookNavigation('nonsense', 'https://127.0.0.1:40123/')).toBe('deny')
  })
})
