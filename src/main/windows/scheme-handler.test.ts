import { describe, expect, it } from 'vitest'
import { NoSchemeHandlerError, requireSchemeHandler } from './scheme-handler'

describe('a URL scheme’s handler on Linux', () => {
  const link = 'vscode://vscode-remote/ssh-remote+trainer/root'

  it('asks xdg-mime for the scheme, and goes on when an application takes it', async () => {
    const asked: string[][] = []
    await requireSchemeHandler(link, async (file, args) => {
      asked.push([file, ...args])
      return 'code.desktop\n'
    })
    expect(asked).toEqual([['xdg-mime', 'query', 'default', 'x-scheme-handler/vscode']])
  })

  it('refuses when none does, or when xdg-utils is missing, saying which scheme', async () => {
    await expect(requireSchemeHandler(link, async () => '\n')).rejects.toThrow(NoSchemeHandlerError)
    await expect(requireSchemeHandler('cursor://vscode-remote/ssh-remote+x', async () => '')).rejects.toThrow(/cursor: links/)
    const missing = Object.assign(new Error('spawn xdg-mime ENOENT'), { code: 'ENOENT' })
    await expect(
      requireSchemeHandler(link, async () => {
        throw missing
      })
    ).rejects.toThrow(NoSchemeHandlerError)
  })

  it('lets xdg-open try when the query itself fails otherwise', async () => {
    await expect(
      requireSchemeHandler(link, async () => {
        throw Object.assign(new Error('exit 4'), { code: 4 })
      })
    ).resolves.toBeUndefined()
  })
})
