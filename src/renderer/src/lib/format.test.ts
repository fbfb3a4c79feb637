import { describe, expect, it } from 'vitest'
import { chargeModeUnit, formatAge, formatBilling, formatInstanceType, formatTime } from './format'
import { makeInstance } from '../testing/instances'

describe('format', () => {
  it('names GPU count and type, CPU and memory', () => {
    expect(formatInstanceType(makeInstance())).toBe('2 × A100 · 16 CPU · 128 GB')
    const cpuOnly = makeInstance()
    cpuOnly.instanceSpecInfo.instanceTypeInfo.gpu.amount = 0
    expect(formatInstanceType(cpuOnly)).toBe('16 CPU · 128 GB')
  })

  it('shows price, unit, charge mode and subscription length', () => {
    expect(formatBilling(makeInstance())).toBe('$1.20 / hour · On-Demand')
    const weekly = makeInstance()
    weekly.instanceSpecInfo.instanceBillingInfo.chargeMode = 'perWeek'
    weekly.instanceSpecInfo.instanceBillingInfo.duration = 3
    weekly.instanceSpecInfo.instanceBillingInfo.price = 8
    expect(formatBilling(weekly)).toBe('$8 / week × 3 · On-Demand')
  })

  it('says age compactly', () => {
    const now = Date.UTC(2026, 0, 10)
    expect(formatAge(now - 10_000, now)).toBe('just now')
    expect(formatAge(now - 5 * 60_000, now)).toBe('5 min')
    expect(formatAge(now - 3 * 3_600_000, now)).toBe('3 h')
    expect(formatAge(now - 72 * 3_600_000, now)).toBe('3 d')
    expect(formatAge(now + 60_000, now)).toBe('just now')
  })

  it('shows the spec\'s 0 timestamps as a dash', () => {
    expect(formatTime(0)).toBe('—')
  })

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    '#12 item 11: a chargeMode of %s prints as itself, never JavaScript internals',
    (mode) => {
      const odd = makeInstance()
      odd.instanceSpecInfo.instanceBillingInfo.chargeMode = mode
      expect(chargeModeUnit(mode)).toBe(mode)
      expect(formatBilling(odd)).toBe(`$1.20 / ${mode} · On-Demand`)
    }
  )
})
