/**
 * "Open in VS Code" / "Open in Cursor": the Remote-SSH link to an instance's Host alias (as
 * written to ~/.ssh/config by ssh-config.ts) and its home folder, built here from checked values
 * only, and the one check every such link passes before the OS sees it. Which editors are
 * installed is looked up on disk (VS Code is always offered: the OS says so if it is missing).
 */
import { delimiter, join } from 'node:path'
import type { Editor } from '../../../shared/contract-tunnels'
import { AppError } from '../../app-error'
import { checkAbsolute } from '../sftp/remote-path'

export const EDITOR_NAMES: Record<Editor, string> = { vscode: 'VS Code', cursor: 'Cursor' }

const ALIAS = /^[A-Za-z0-9._-]{1,100}$/
/** Exactly what editorUrl makes: the scheme, the Remote-SSH authority, an alias, an encoded path. */
const EDITOR_URL = /^(vscode|cursor):\/\/vscode-remote\/ssh-remote\+[A-Za-z0-9._-]{1,100}(\/[A-Za-z0-9._~!'()*%-]*)*$/

/**
 * `vscode://vscode-remote/ssh-remote+<alias>/<home>`, each path segment percent-encoded. A home
 * that is not a plain absolute path (it comes from the server) is left out: the editor then opens
 * the remote without a folder.
 */
export function editorUrl(editor: Editor, alias: string, home?: string): string {
  if (!ALIAS.test(alias)) throw new AppError('not-allowed', `The Host alias “${alias}” cannot be used in an editor link.`)
  const checked = home !== undefined && !/[\u0000-\u001f\u007f]/.test(home) ? checkAbsolute(home) : undefined
  const path = checked?.ok && checked.value !== '/' ? checked.value.split('/').map(encodeURIComponent).join('/') : ''
  return checkEditorUrl(`${editor}://vscode-remote/ssh-remote+${alias}${path}`)
}

/** The gate before the OS: only an editor link of exactly editorUrl's shape passes. */
export function checkEditorUrl(url: string): string {
  if (!EDITOR_URL.test(url)) throw new AppError('not-allowed', 'Only editor links that Cloud Tray made itself are opened.')
  return url
}

export interface EditorLookup {
  platform: NodeJS.Platform
  env: NodeJS.ProcessEnv
  home: string
  exists: (path: string) => boolean
}

/** The editors to offer: VS Code always, Cursor where its app or command is found. */
export function installedEditors(lookup: EditorLookup): Editor[] {
  return cursorPlaces(lookup).some((path) => lookup.exists(path)) ? ['vscode', 'cursor'] : ['vscode']
}

function cursorPlaces({ platform, env, home }: EditorLookup): string[] {
  const onPath = (env['PATH'] ?? '').split(delimiter).filter(Boolean)
  switch (platform) {
    case 'darwin':
      return ['/Applications/Cursor.app', join(home, 'Applications', 'Cursor.app'), ...onPath.map((dir) => join(dir, 'cursor'))]
    case 'win32': {
      const local = env['LOCALAPPDATA'] ?? join(home, 'AppData', 'Local')
      return [
        join(local, 'Programs', 'cursor', 'Cursor.exe'),
        ...onPath.flatMap((dir) => [join(dir, 'cursor.cmd'), join(dir, 'cursor.exe')])
      ]
    }
    default:
      return [
        join(home, '.local', 'share', 'applications', 'cursor.desktop'),
        '/usr/share/applications/cursor.desktop',
        '/opt/Cursor',
        ...onPath.map((dir) => join(dir, 'cursor'))
      ]
  }
}
