/** App-wide commands: the version, warnings, opening links, reading the clipboard. */
import type { Warning } from '../../shared/contract'
import { AppError } from '../app-error'
import type { Platform } from '../core-types'
import { checkExternalUrl } from '../windows/external-links'
import type { CommandGroup } from './dispatcher'

export interface AppServices {
  version: string
  platform: Pick<Platform, 'openExternal' | 'readClipboard'>
  warnings(): Warning[]
}

export function appCommands(services: AppServices): CommandGroup<'app.info' | 'warnings.get' | 'external.open' | 'clipboard.read'> {
  return {
    handlers: {
      'app.info': async () => ({ version: services.version }),
      'warnings.get': async () => services.warnings(),
      'external.open': async ({ url }) => {
        // why: the URL is checked right here (http/https only), and the platform checks again.
        await services.platform.openExternal(checkExternalUrl(url)) // eng-disable OPEN_EXTERNAL_JS_CHECK
      },
      'clipboard.read': async () => {
        const read = services.platform.readClipboard
        if (!read)
          throw new AppError(
            'not-allowed',
            'Cloud Tray cannot read the clipboard here. Use your system paste shortcut (Ctrl+V or ⌘V) inside the terminal.'
          )
        return { text: await read() }
      }
    }
  }
}
