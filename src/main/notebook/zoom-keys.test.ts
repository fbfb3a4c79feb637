import { describe, expect, it } from 'vitest'
import { keyDown } from './testing/key-down'
import { MAX_ZOOM_FACTOR, MIN_ZOOM_FACTOR, ZOOM_FACTORS, nextZoomFactor, zoomKey } from './zoom-keys'

describe('zoomKey', () => {
  it.each([
    ['Ctrl+=', keyDown('=', { control: true }), 'in'],
    ['Ctrl+Shift+= (+)', keyDown('+', { control: true, shift: true }), 'in'],
    ['Ctrl+numpad +', keyDown('+', { control: true }), 'in'],
    ['Ctrl+Shift+0 where = needs Shift (German)', keyDown('=', { control: true, shift: true }), 'in'],
    ['Ctrl+-', keyDown('-', { control: true }), 'out'],
    ['Ctrl+0', keyDown('0', { control: true }), 'reset'],
    ['Ctrl+Shift+à where 0 needs Shift (French)', keyDown('0', { control: true, shift: true }), 'reset']
  ] as const)('Windows and Linux: %s', (_name, input, action) => {
    expect(zoomKey(input, 'linux')).toBe(action)
    expect(zoomKey(input, 'win32')).toBe(action)
  })

  it.each([
    ['no modifier', keyDown('=')],
    ['Ctrl+Shift+- (JupyterLab: Split Cell)', keyDown('-', { control: true, shift: true })],
    ['Ctrl+Shift+- as _', keyDown('_', { control: true, shift: true })],
    ['AltGr (Ctrl+Alt)', keyDown('0', { control: true, alt: true })],
    ['Super', keyDown('=', { meta: true })],
    ['Ctrl+Super', keyDown('=', { control: true, meta: true })],
    ['another key', keyDown('a', { control: true })],
    ['the release', { ...keyDown('=', { control: true }), type: 'keyUp' }],
    ['while composing (an input method)', { ...keyDown('=', { control: true }), isComposing: true }]
  ])('Windows and Linux leave %s to the page', (_name, input) => {
    expect(zoomKey(input, 'linux')).toBeUndefined()
    expect(zoomKey(input, 'win32')).toBeUndefined()
  })

  it('macOS: ⌘, and Ctrl is the page’s', () => {
    expect(zoomKey(keyDown('=', { meta: true }), 'darwin')).toBe('in')
    expect(zoomKey(keyDown('-', { meta: true }), 'darwin')).toBe('out')
    expect(zoomKey(keyDown('0', { meta: true }), 'darwin')).toBe('reset')
    expect(zoomKey(keyDown('=', { control: true }), 'darwin')).toBeUndefined()
    expect(zoomKey(keyDown('=', { control: true, meta: true }), 'darwin')).toBeUndefined()
  })
})

describe('nextZoomFactor', () => {
  it('steps through Chromium’s presets from 100 %', () => {
    const steps = (action: 'in' | 'out'): number[] => {
      const seen: number[] = []
      for (let factor = 1; seen.length < 20;) seen.push((factor = nextZoomFactor(factor, action)))
      return seen
    }
    expect(steps('in')).toEqual([1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, ...Array(12).fill(5)])
    expect(steps('out')).toEqual([0.9, 0.8, 0.75, 2 / 3, 0.5, 1 / 3, ...Array(14).fill(0.25)])
  })

  it('never leaves 25 %–500 %, and goes from anywhere between steps to the next one that way', () => {
    expect([MIN_ZOOM_FACTOR, MAX_ZOOM_FACTOR]).toEqual([0.25, 5])
    expect(nextZoomFactor(5, 'in')).toBe(5)
    expect(nextZoomFactor(9, 'in')).toBe(5)
    expect(nextZoomFactor(0.25, 'out')).toBe(0.25)
    expect(nextZoomFactor(0.1, 'out')).toBe(0.25)
    expect(nextZoomFactor(1.05, 'in')).toBe(1.1)
    expect(nextZoomFactor(1.05, 'out')).toBe(1)
    // A factor Chromium hands back from its level, a hair off the preset.
    expect(nextZoomFactor(1.1000000001, 'in')).toBe(1.25)
    expect(nextZoomFactor(0.6666, 'out')).toBe(0.5)
    expect(nextZoomFactor(Number.NaN, 'in')).toBe(1.1)
    for (const factor of [...ZOOM_FACTORS, 0, -1, 7, 0.3, 4.5])
      for (const action of ['in', 'out', 'reset'] as const) {
        const next = nextZoomFactor(factor, action)
        expect(next).toBeGreaterThanOrEqual(0.25)
        expect(next).toBeLessThanOrEqual(5)
      }
  })

  it('0 goes back to 100 %', () => {
    expect(nextZoomFactor(3, 'reset')).toBe(1)
    expect(nextZoomFactor(0.25, 'reset')).toBe(1)
  })
})
