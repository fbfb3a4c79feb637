/**
 * The icon of the app's windows. Only Linux needs one here: macOS shows the bundle's icon and
 * Windows the executable's, while on Linux a window without one gets Electron's default.
 */
import { WINDOW_ICON_PNG_BASE64 } from './window-icon.generated'

export function windowIconPng(platform: NodeJS.Platform): Buffer | undefined {
  return platform === 'linux' ? Buffer.from(WINDOW_ICON_PNG_BASE64, 'base64') : undefined
}
