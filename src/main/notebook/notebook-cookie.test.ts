import { describe, expect, it } from 'vitest'
import { notebookCookie } from './notebook-cookie'

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vIn0.c2lnbmF0dXJl'

describe('notebookCookie', () => {
  it.each([
    ['https://notebook.example.com/notebook/inst-1/', 'https://notebook.example.com'],
    ['https://127.0.0.1:40123/notebook/inst-1/?x=1#y', 'https://127.0.0.1:40123']
  ])('for %s is set on exactly the origin %s, secure, httpOnly, sameSite strict, host-only', (url, origin) => {
    const cookie = notebookCookie(url, TOKEN)
    expect(cookie).toEqual({ url: origin, name: 'AccessToken', value: TOKEN, secure: true, httpOnly: true, sameSite: 'strict' })
    expect(cookie).not.toHaveProperty('domain')
    expect(cookie).not.toHaveProperty('expirationDate')
  })

  it('is never set for plain http', () => {
    expect(() => notebookCookie('http://notebook.example.com/x', TOKEN)).toThrow(/https/)
  })

  it.each(['a;Domain=evil.com', 'with space', 'quo"te', 'comma,', '', 'new\nline'])(
    'refuses a token that would break the cookie (%j) without repeating it',
    (token) => {
      expect(() => notebookCookie('https://notebook.example.com/', token)).toThrow(/sign in again/)
      try {
        notebookCookie('https://notebook.example.com/', token)
      } catch (error) {
        if (token !== '') expect((error as Error).message).not.toContain(token)
      }
    }
  )
})
