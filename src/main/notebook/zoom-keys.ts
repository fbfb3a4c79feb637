/**
 * Zoom in a notebook window, as in the browser people use Jupyter in: Ctrl (⌘ on macOS) with =
 * or + zooms in, with - zooms out, with 0 goes back to 100 %, by Chromium's own steps and within
 * its bounds. The installed app has no View menu on Windows and Linux (desktop-integration.ts),
 * so main reads these keys before the page does (notebook-window-adapter.ts); every other key,
 * and these keys with other modifiers, are the page's.
 */
export type ZoomAction = 'in' | 'out' | 'reset'

/** What zoom needs of a key event (Electron's `Input`, from `before-input-event`). */
export interface ZoomKeyInput {
  type: string
  key: string
  control: boolean
  meta: boolean
  alt: boolean
  shift: boolean
  isComposing?: boolean
}

export function zoomKey(input: ZoomKeyInput, platform: NodeJS.Platform): ZoomAction | undefined {
  // Only the press acts (held down, it repeats as in a browser); Alt is AltGr's half on Windows.
  if (input.type !== 'keyDown' || input.isComposing === true || input.alt) return undefined
  const accelerator = platform === 'darwin' ? input.meta && !input.control : input.control && !input.meta
  if (!accelerator) return undefined
  // By the character the key makes, so + works where it has a key of its own and = where it needs Shift.
  if (input.key === '=' || input.key === '+') return 'in'
  // Ctrl+Shift+- is JupyterLab's "Split Cell": only the plain chord zooms out.
  if (input.key === '-' && !input.shift) return 'out'
  if (input.key === '0') return 'reset'
  return undefined
}

/** Chromium's preset zoom factors (components/zoom/page_zoom_constants.cc): 25 % to 500 %. */
export const ZOOM_FACTORS: readonly number[] = [0.25, 1 / 3, 0.5, 2 / 3, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5]
export const MIN_ZOOM_FACTOR = ZOOM_FACTORS[0]!
export const MAX_ZOOM_FACTOR = ZOOM_FACTORS.at(-1)!

/** Chromium's next step from `current` (a factor between steps goes to the nearest one that way), never past the ends. */
export function nextZoomFactor(current: number, action: ZoomAction): number {
  if (action === 'reset') return 1
  const from = Number.isFinite(current) && current > 0 ? current : 1
  // Factors come back from Chromium as levels turned into factors: compare with some slack.
  const slack = 0.001
  if (action === 'in') return ZOOM_FACTORS.find((factor) => factor > from + slack) ?? MAX_ZOOM_FACTOR
  return ZOOM_FACTORS.findLast((factor) => factor < from - slack) ?? MIN_ZOOM_FACTOR
}
