/**
 * What a program on the instance may ask of the terminal through OSC sequences (#21: whatever
 * runs there decides the bytes). xterm.js parses them; these rules decide what is done:
 *
 * - OSC 52 (set the clipboard) is done only when the user allows it (Settings → Terminal, off by
 *   default): a program that could fill the clipboard unseen could make the next paste run
 *   something. Asking for the clipboard's content (`?`) is never answered. At most
 *   OSC52_MAX_TEXT characters are taken.
 * - OSC 0/1/2 (window and icon titles) are taken and dropped: the tab is named after the
 *   instance, so a program cannot make one tab look like another.
 * - OSC 8 (hyperlinks) opens only what main's link check passes (http and https), as the
 *   clicked URLs of the web-links addon do.
 */

/** The most text one OSC 52 may put on the clipboard. */
export const OSC52_MAX_TEXT = 64 * 1024
/** Its base64 length: what is longer is not read at all. */
const OSC52_MAX_PAYLOAD = Math.ceil((OSC52_MAX_TEXT * 4) / 3) + 4

export type Osc52 =
  | { kind: 'write'; text: string }
  /** `read`: it asked for the clipboard; `blocked`: the setting is off; `invalid`: not a clipboard write we can read. */
  | { kind: 'refused'; why: 'read' | 'blocked' | 'too-long' | 'invalid' }

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** OSC 52's data (`Pc;Pd`: selections, then base64 or `?`) → what to do with it. */
export function readOsc52(data: string, allowed: boolean): Osc52 {
  const separator = data.indexOf(';')
  if (separator < 0 || separator > 16) return { kind: 'refused', why: 'invalid' }
  const payload = data.slice(separator + 1)
  if (payload === '?') return { kind: 'refused', why: 'read' }
  if (payload.length > OSC52_MAX_PAYLOAD) return { kind: 'refused', why: 'too-long' }
  if (!BASE64.test(payload) || payload.length % 4 === 1) return { kind: 'refused', why: 'invalid' }
  if (!allowed) return { kind: 'refused', why: 'blocked' }
  let text: string
  try {
    const binary = atob(payload)
    const bytes = new Uint8Array(binary.length)
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return { kind: 'refused', why: 'invalid' }
  }
  if (text.length > OSC52_MAX_TEXT) return { kind: 'refused', why: 'too-long' }
  return { kind: 'write', text }
}
