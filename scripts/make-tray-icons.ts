/**
 * Draws the tray icons into resources/: a cloud with a status badge, for idle, running, busy
 * and attention, at 16 px (1x) and 32 px (2x), in colour for Windows and Linux and as black
 * template images for the macOS menu bar (which tints them; there the badge differs by shape).
 * Shapes are signed-distance functions sampled 4×4 per pixel, so the edges are anti-aliased at
 * both sizes. Run: npx tsx scripts/make-tray-icons.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodePng } from './png'

export const TRAY_ICON_STATES = ['idle', 'running', 'busy', 'attention'] as const
type State = (typeof TRAY_ICON_STATES)[number]
type Rgb = [number, number, number]

const CLOUD: Rgb = [0x80, 0x86, 0x8b]
const BADGE: Record<Exclude<State, 'idle'>, Rgb> = {
  running: [0x1e, 0x8e, 0x3e],
  busy: [0xf2, 0x99, 0x00],
  attention: [0xd9, 0x30, 0x25]
}

const circle = (x: number, y: number, cx: number, cy: number, r: number): number => Math.hypot(x - cx, y - cy) - r
const box = (x: number, y: number, x0: number, y0: number, x1: number, y1: number): number =>
  Math.max(x0 - x, x - x1, y0 - y, y - y1)

/** The cloud, in a 16-unit square: three puffs over a flat base. Negative inside. */
function cloud(x: number, y: number): number {
  return Math.min(circle(x, y, 5, 9, 3.2), circle(x, y, 9, 7, 4.2), circle(x, y, 12.2, 9.6, 2.8), box(x, y, 2.2, 9, 14.5, 12.4))
}

const BADGE_CENTRE = { x: 12, y: 12 }
const badgeDisc = (x: number, y: number): number => circle(x, y, BADGE_CENTRE.x, BADGE_CENTRE.y, 3.6)

/** Template badge shapes: running a dot, busy a ring, attention an exclamation mark. */
function badgeMark(state: Exclude<State, 'idle'>, x: number, y: number): number {
  if (state === 'running') return circle(x, y, BADGE_CENTRE.x, BADGE_CENTRE.y, 2.6)
  if (state === 'busy') return Math.abs(circle(x, y, BADGE_CENTRE.x, BADGE_CENTRE.y, 2.1)) - 0.7
  return Math.min(box(x, y, 11.4, 9, 12.6, 12.6), circle(x, y, 12, 14.3, 0.7))
}

/** Alpha and colour of one point of the icon. */
function sample(state: State, template: boolean, x: number, y: number): [number, ...Rgb] {
  const inCloud = cloud(x, y) <= 0
  if (state === 'idle') return inCloud ? [1, ...(template ? ([0, 0, 0] as Rgb) : CLOUD)] : [0, 0, 0, 0]
  // A gap around the badge keeps it readable against the cloud.
  const nearBadge = badgeDisc(x, y) <= 0.9
  if (template) {
    if (badgeMark(state, x, y) <= 0) return [1, 0, 0, 0]
    return inCloud && !nearBadge ? [1, 0, 0, 0] : [0, 0, 0, 0]
  }
  if (badgeDisc(x, y) <= 0) return [1, ...BADGE[state]]
  return inCloud && !nearBadge ? [1, ...CLOUD] : [0, 0, 0, 0]
}

export function drawIcon(state: State, size: number, template: boolean): Uint8Array {
  const pixels = new Uint8Array(size * size * 4)
  const scale = 16 / size
  const n = 4
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let alpha = 0
      const colour = [0, 0, 0]
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const [a, r, g, b] = sample(state, template, (px + (sx + 0.5) / n) * scale, (py + (sy + 0.5) / n) * scale)
          alpha += a
          colour[0]! += r * a
          colour[1]! += g * a
          colour[2]! += b * a
        }
      }
      const i = (py * size + px) * 4
      if (alpha > 0) for (let c = 0; c < 3; c++) pixels[i + c] = Math.round(colour[c]! / alpha)
      pixels[i + 3] = Math.round((alpha / (n * n)) * 255)
    }
  }
  return pixels
}

/** File names: tray-<state>.png and tray-<state>@2x.png; macOS: tray-<state>Template(@2x).png. */
export function iconFileName(state: State, scale: 1 | 2, template: boolean): string {
  return `tray-${state}${template ? 'Template' : ''}${scale === 2 ? '@2x' : ''}.png`
}

export function writeTrayIcons(dir: string): string[] {
  mkdirSync(dir, { recursive: true })
  const written: string[] = []
  for (const state of TRAY_ICON_STATES) {
    for (const template of [false, true]) {
      for (const scale of [1, 2] as const) {
        const size = 16 * scale
        const file = join(dir, iconFileName(state, scale, template))
        writeFileSync(file, encodePng(size, size, drawIcon(state, size, template)))
        written.push(file)
      }
    }
  }
  return written
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = writeTrayIcons(join(import.meta.dirname, '..', 'resources'))
  console.log(`wrote ${files.length} icons to resources/`)
}
