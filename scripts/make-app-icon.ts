/**
 * Draws the application icon, resources/icon.png (1024 px): the tray's cloud in white on a blue
 * rounded tile, with a shell prompt (›_) in it: the machines, one step from a terminal. The tile
 * keeps the macOS icon grid's margin (824 of 1024 px, corner radius 185), so the Dock shows it at
 * the size of its neighbours. electron-builder turns it into the .icns, .ico and Linux icons.
 * Run: npx tsx scripts/make-app-icon.ts
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { box, cloud, rasterize, roundedBox, segment, type Sample } from './icon-shapes'
import { encodePng } from './png'

export const APP_ICON_SIZE = 1024
export const APP_ICON_PATH = join(import.meta.dirname, '..', 'resources', 'icon.png')

type Rgb = [number, number, number]
const TILE_TOP: Rgb = [0x3b, 0x82, 0xf6]
const TILE_BOTTOM: Rgb = [0x1d, 0x4e, 0xd8]
const CLOUD: Rgb = [0xff, 0xff, 0xff]
const PROMPT: Rgb = [0x1e, 0x3a, 0x8a]

/** The tile, in the same 16-unit square: 824/1024 wide, centred, corners of radius 185/1024. */
const TILE_HALF = (824 / 1024) * 8
const tile = (x: number, y: number): number =>
  roundedBox(x, y, 8 - TILE_HALF, 8 - TILE_HALF, 8 + TILE_HALF, 8 + TILE_HALF, (185 / 1024) * 16)

/** The cloud, scaled into the tile and centred (its own centre is near (8.4, 7.6)). */
const CLOUD_SCALE = 0.72
const cloudInTile = (x: number, y: number): number => cloud((x - 8) / CLOUD_SCALE + 8.4, (y - 8) / CLOUD_SCALE + 7.9, 1.6) * CLOUD_SCALE

/** A chevron and an underscore on the cloud's body. */
function prompt(x: number, y: number): number {
  const r = 0.36
  return Math.min(
    segment(x, y, 5.5, 7.9, 6.9, 9.1, r),
    segment(x, y, 6.9, 9.1, 5.5, 10.3, r),
    box(x, y, 7.8, 10.3 - r, 10.3, 10.3 + r)
  )
}

/** Alpha and colour of one point of the icon. */
function sample(x: number, y: number): Sample {
  if (tile(x, y) > 0) return [0, 0, 0, 0]
  if (prompt(x, y) <= 0 && cloudInTile(x, y) <= 0) return [1, ...PROMPT]
  if (cloudInTile(x, y) <= 0) return [1, ...CLOUD]
  const t = Math.max(0, Math.min(1, (y - 1.6) / 12.8))
  return [1, ...(TILE_TOP.map((top, i) => top + (TILE_BOTTOM[i]! - top) * t) as Rgb)]
}

export function drawAppIcon(size = APP_ICON_SIZE): Uint8Array {
  // 2×2 samples a pixel: at 1024 px that is smooth enough, and the test redraws it quickly.
  return rasterize(size, 2, sample)
}

export const appIconPng = (): Buffer => encodePng(APP_ICON_SIZE, APP_ICON_SIZE, drawAppIcon())

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(APP_ICON_PATH, appIconPng())
  console.log(`wrote ${APP_ICON_PATH}`)
}
