/** App-wide commands: version and shell, warnings, recorded effects, opening links, reading the clipboard. */
import type { AppInfo, RecordedEffect, Warning } from '../../shared/contract'
import { AppError } from '../app-error'
import type { Platform } from '../core-types'
import type { CommandGroup } from './dispatcher'

export interface AppServices {
  version: string
  platform: Pick<Platform, 'shell' | 'openExternal' | 'readClipboard'>
  warnings(): Warning[]
  recorded(): RecordedEffect[]
}

export function appCommands(services: AppServices): CommandGroup<'app.info' | 'warnings.get' | 'recorded.get' | 'external.open' | 'clipboard.read'> {
  return {
    handlers: {
      'app.info': async () => appInfo(services.version, services.platform.shell),
      'warnings.get': async () => services.warnings(),
      'recorded.get': async () => services.recorded(),
      'external.open': async ({ url }) => {
        // why: the URL is checked right here (http/https only), and the platform checks again.
        await services.platform.openExternal(checkExternalUrl(url)) // eng-disable OPEN_EXTERNAL_JS_CHECK
      },
      'clipboard.read': async () => {
        const read = services.platform.readClipboard
        if (!read) throw new AppError('not-allowed', 'Cloud Tray cannot read the clipboard here. Use your system paste shortcut (Ctrl+V or ⌘V) inside the terminal.')
        return { text: await read() }
      }
    }
  }
}

/** The version, and in the web shell what stands in for Electron, in the user's words. */
export function appInfo(version: string, shell: AppInfo['shell']): AppInfo {
  return {
    version,
    shell,
    replaced:
      shell === 'web'
        ? [
            'Desktop notifications appear as messages on this page.',
            'The tray menu is shown as a panel on this page.',
            'Notebook windows and links are recorded and listed instead of opened.'
          ]
        : []
  }
}

/** Only http(s) links leave the app: file:, javascript:, custom schemes could run things. */
export function checkExternalUrl(input: string): string {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    throw new AppError('bad-input', 'That link is not a valid web address.', { field: 'url' })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('not-allowed', 'Only http and https links can be opened.', { field: 'url' })
  }
  if (url.username || url.password) {
    throw new AppError('not-allowed', 'Links that carry a user name or password are not opened.', { field: 'url' })
  }
  return url.toString()
}
