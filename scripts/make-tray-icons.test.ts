import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import {
  APP_ICO_PATH,
  APP_ICON_PATH,
  APP_ICON_SIZE,
  WINDOW_ICON_MODULE_PATH,
  appIconIco,
  appIconPng,
  windowIconModule
} from './make-app-icon'
import { drawIcon, iconFileName, TRAY_ICON_STATES, TRAY_ICONS_MODULE_PATH, trayIco, trayIconsModule } from './make-tray-icons'
import { crc32, encodePng } from './png'

describe('PNG encoder', () => {
  it('writes a valid header and pixels that inflate back', () => {
    const pixels = new Uint8Array(2 * 3 * 4).map((_, i) => i)
    const png = encodePng(2, 3, pixels)
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(png.readUInt32BE(16)).toBe(2)
    expect(png.readUInt32BE(20)).toBe(3)
    const idatLength = png.readUInt32BE(33)
    const rows = inflateSync(png.subarray(41, 41 + idatLength))
    expect([...rows.subarray(1, 9)]).toEqual([...pixels.subarray(0, 8)])
    expect(crc32(Buffer.from('IEND'))).toBe(0xae426082)
  })
})

describe('tray icons', () => {
  it('the committed PNGs are exactly what the script draws', () => {
    for (const state of TRAY_ICON_STATES) {
      for (const template of [false, true]) {
        for (const scale of [1, 2] as const) {
          const size = 16 * scale
          const committed = readFileSync(join(import.meta.dirname, '..', 'resources', iconFileName(state, scale, template)))
          expect(committed.equals(encodePng(size, size, drawIcon(state, size, template)))).toBe(true)
        }
      }
    }
  })

  it('the generated module the tray adapter uses is up to date', () => {
    expect(readFileSync(TRAY_ICONS_MODULE_PATH, 'utf8')).toBe(trayIconsModule())
  })

  it('template images are black with alpha only; states differ', () => {
    const seen = new Set<string>()
    for (const state of TRAY_ICON_STATES) {
      const template = drawIcon(state, 16, true)
      for (let i = 0; i < template.length; i += 4) expect(template[i]! + template[i + 1]! + template[i + 2]!).toBe(0)
      seen.add(Buffer.from(template).toString('base64'))
      seen.add(Buffer.from(drawIcon(state, 16, false)).toString('base64'))
    }
    expect(seen.size).toBe(TRAY_ICON_STATES.length * 2)
  })
})

describe('app icon', () => {
  it('the committed PNG is exactly what the script draws, 1024 px square', () => {
    const committed = readFileSync(APP_ICON_PATH)
    expect(committed.readUInt32BE(16)).toBe(APP_ICON_SIZE)
    expect(committed.readUInt32BE(20)).toBe(APP_ICON_SIZE)
    expect(committed.equals(appIconPng())).toBe(true)
  })

  it('the generated window icon module is up to date', () => {
    expect(readFileSync(WINDOW_ICON_MODULE_PATH, 'utf8')).toBe(windowIconModule())
  })

  it('every installer is built with it (Windows with its .ico, which is exactly what the script draws)', () => {
    const config = parse(readFileSync(join(import.meta.dirname, '..', 'electron-builder.yml'), 'utf8')) as Record<string, { icon?: string }>
    for (const platform of ['linux', 'mac']) expect(config[platform]?.icon).toBe('resources/icon.png')
    expect(config['win']?.icon).toBe('resources/icon.ico')
    expect(readFileSync(APP_ICO_PATH).equals(appIconIco())).toBe(true)
  })

  it("the Windows tray's .ico files are exactly what the script draws", () => {
    for (const state of TRAY_ICON_STATES)
      expect(readFileSync(join(import.meta.dirname, '..', 'resources', 'tray', `tray-${state}.ico`)).equals(trayIco(state))).toBe(true)
  })
})
