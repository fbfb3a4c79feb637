import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkEditorUrl, editorUrl, installedEditors } from './editors'

describe('editor links', () => {
  it.each([
    ['vscode', '/root', 'vscode://vscode-remote/ssh-remote+cloudtray-box/root'],
    ['cursor', '/home/ubuntu', 'cursor://vscode-remote/ssh-remote+cloudtray-box/home/ubuntu'],
    ['vscode', '/home/a b/ü', 'vscode://vscode-remote/ssh-remote+cloudtray-box/home/a%20b/%C3%BC'],
    ['vscode', '/home/x?y#z', 'vscode://vscode-remote/ssh-remote+cloudtray-box/home/x%3Fy%23z'],
    ['vscode', undefined, 'vscode://vscode-remote/ssh-remote+cloudtray-box'],
    ['vscode', '/', 'vscode://vscode-remote/ssh-remote+cloudtray-box'],
    // From the server and not a plain path: left out, the editor opens without a folder.
    ['vscode', 'relative', 'vscode://vscode-remote/ssh-remote+cloudtray-box'],
    ['vscode', '/home/u\n--evil', 'vscode://vscode-remote/ssh-remote+cloudtray-box'],
    ['vscode', '/home/../etc', 'vscode://vscode-remote/ssh-remote+cloudtray-box']
  ] as const)('%s at %j', (editor, home, url) => expect(editorUrl(editor, 'cloudtray-box', home)).toBe(url))

  it('refuses an alias that is not one ssh-config.ts makes', () => {
    expect(() => editorUrl('vscode', 'box x', '/root')).toThrow(/cannot be used/)
    expect(() => editorUrl('vscode', 'a@b', '/root')).toThrow(/cannot be used/)
  })

  it('lets only links of editorUrl’s shape through to the OS', () => {
    for (const url of [
      'https://example.com',
      'vscode://file/etc/passwd',
      'vscode://vscode-remote/ssh-remote+a b/x',
      'cursor://vscode-remote/wsl+x/',
      'javascript:alert(1)'
    ]) {
      expect(() => checkEditorUrl(url)).toThrow(/Only editor links/)
    }
    fc.assert(
      fc.property(
        fc.constantFrom('vscode', 'cursor'),
        fc.stringMatching(/^[A-Za-z0-9._-]{1,100}$/),
        fc.option(fc.string(), { nil: undefined }),
        (editor, alias, home) => {
          const url = editorUrl(editor as 'vscode', alias, home)
          return checkEditorUrl(url) === url && new URL(url).host === 'vscode-remote'
        }
      ),
      { numRuns: 300 }
    )
  })

  it('offers Cursor only where it is installed', () => {
    const lookup = (platform: NodeJS.Platform, present: string[], env: NodeJS.ProcessEnv = {}) =>
      installedEditors({ platform, env, home: '/home/me', exists: (path) => present.includes(path) })
    expect(lookup('linux', [])).toEqual(['vscode'])
    expect(lookup('linux', ['/home/me/.local/share/applications/cursor.desktop'])).toEqual(['vscode', 'cursor'])
    expect(lookup('linux', ['/opt/bin/cursor'], { PATH: '/usr/bin:/opt/bin' })).toEqual(['vscode', 'cursor'])
    expect(lookup('darwin', ['/Applications/Cursor.app'])).toEqual(['vscode', 'cursor'])
    expect(lookup('darwin', ['/Applications/Visual Studio Code.app'])).toEqual(['vscode'])
  })
})
