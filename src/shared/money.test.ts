import { afterEach, describe, expect, it, vi } from 'vitest'

/** A fresh copy of the module, so that what it does when it loads can be watched. */
async function freshMoney(): Promise<typeof import('./money')> {
  vi.resetModules()
  return import('./money')
}

describe('formatDollars', () => {
  afterEach(() => vi.restoreAllMocks())

  it('writes dollars as people read them', async () => {
    const { formatDollars } = await freshMoney()
    expect(formatDollars(12.5)).toBe('$12.50')
    expect(formatDollars(1234.5)).toBe('$1,234.50')
    expect(formatDollars(-3.2)).toBe('−$3.20')
    expect(formatDollars(0)).toBe('$0.00')
    expect(formatDollars(0.004)).toBe('$0.004')
  })

  // The first number formatter of a process loads ICU's data (~9 ms): `cloud-tray list --json`
  // loads this module and formats no money, so it must not pay for it.
  it('builds its number formatters on first use, not when it loads, and only once', async () => {
    const Original = Intl.NumberFormat
    const NumberFormat = vi.spyOn(Intl, 'NumberFormat').mockImplementation(function (
      locales?: string | string[],
      options?: Intl.NumberFormatOptions
    ) {
      return new Original(locales, options)
    } as typeof Intl.NumberFormat)
    const { formatDollars } = await freshMoney()
    expect(NumberFormat).not.toHaveBeenCalled()
    formatDollars(1)
    formatDollars(0.001)
    const built = NumberFormat.mock.calls.length
    expect(built).toBeGreaterThan(0)
    formatDollars(2)
    expect(NumberFormat).toHaveBeenCalledTimes(built)
  })
})
