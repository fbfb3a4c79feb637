import { describe, expect, it } from 'vitest'
import { notebookAddress, notebookUrl } from './notebook-url'
import { instanceWith } from './testing/instance'

describe('notebookUrl', () => {
  it.each([
    ['notebook.example.com', '/notebook/inst-1/', 'https://notebook.example.com/notebook/inst-1/'],
    ['127.0.0.1:40123', '/notebook/inst-1/', 'https://127.0.0.1:40123/notebook/inst-1/'],
    ['Notebook.Example.com', 'lab/inst-1', 'https://notebook.example.com/lab/inst-1'],
    ['notebook.example.com:443', '/x', 'https://notebook.example.com/x']
  ])('https:// + %s + %s while Running', (domain, subUrl, expected) => {
    expect(notebookUrl(instanceWith({ domain, subUrl }))).toBe(expected)
  })

  it.each(['Starting', 'Stopped', 'Initializing', 'Stopping', 'SomethingNew'])(
    'is unavailable while %s, with a message that says why',
    (status) => {
      const instance = instanceWith({ status })
      expect(notebookUrl(instance)).toBeUndefined()
      expect(notebookAddress(instance)).toEqual({
        ok: false,
        reason: 'not-running',
        message: expect.stringContaining(`it is ${status} now`)
      })
    }
  )

  it.each(['', 'evil.com/path', 'user@notebook.example.com', 'notebook.example.com?x', 'a b', 'https://x', '[::1'])(
    'refuses the domain %j',
    (domain) => {
      expect(notebookAddress(instanceWith({ domain }))).toMatchObject({ ok: false, reason: 'bad-address' })
    }
  )
})
