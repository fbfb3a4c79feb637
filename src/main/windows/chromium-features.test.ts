import { describe, expect, it } from 'vitest'
import { DISABLED_CHROMIUM_FEATURES, disableChromiumFeatures, withFeatures } from './chromium-features'

describe('the Chromium features the app turns off', () => {
  it('includes the deferral of a page’s tasks after a key press (it held every terminal echo back a frame)', () => {
    expect(DISABLED_CHROMIUM_FEATURES).toContain('DeferRendererTasksAfterInput')
  })

  it.each([
    ['', ['A'], 'A'],
    ['X,Y', ['A'], 'X,Y,A'],
    [' X , ,A', ['A', 'B'], 'X,A,B']
  ])('joins %j and %j into one list: %j', (existing, added, joined) => {
    expect(withFeatures(existing, added)).toBe(joined)
  })

  it('sets one switch that keeps what the launch already turned off (Chromium keeps only the last)', () => {
    const switches = new Map<string, string>([['disable-features', 'CalculateNativeWinOcclusion']])
    const commandLine = {
      getSwitchValue: (name: string) => switches.get(name) ?? '',
      appendSwitch: (name: string, value = '') => void switches.set(name, value)
    }
    disableChromiumFeatures(commandLine)
    expect(switches.get('disable-features')).toBe(`CalculateNativeWinOcclusion,${DISABLED_CHROMIUM_FEATURES.join(',')}`)
  })
})
