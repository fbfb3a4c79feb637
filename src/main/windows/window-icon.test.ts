import { describe, expect, it } from 'vitest'
import { windowIconPng } from './window-icon'

describe('windowIconPng', () => {
  it('gives Linux windows the app icon as a 256 px PNG', () => {
    const png = windowIconPng('linux')!
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG')
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([256, 256])
  })

  it('leaves macOS and Windows to the bundle’s and the executable’s icon', () => {
    expect(windowIconPng('darwin')).toBeUndefined()
    expect(windowIconPng('win32')).toBeUndefined()
  })
})
