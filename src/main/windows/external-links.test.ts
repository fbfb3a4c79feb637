import { describe, expect, it } from 'vitest'
import { checkExternalUrl } from './external-links'

describe('checkExternalUrl', () => {
  it.each([
    ['https://example.com/docs', 'https://example.com/docs'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/']
  ])('lets %s out', (input, url) => {
    expect(checkExternalUrl(input)).toBe(url)
  })

  it.each([
    ['not a link', 'bad-input'],
    ['file:///etc/passwd', 'not-allowed'],
    ['javascript:alert(1)', 'not-allowed'],
    ['vscode://open', 'not-allowed'],
    ['https://user:secret@example.com/', 'not-allowed']
  ])('keeps %s in (%s)', (input, kind) => {
    expect(() => checkExternalUrl(input)).toThrow(expect.objectContaining({ kind, field: 'url' }))
  })
})
