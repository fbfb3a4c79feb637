import { describe, expect, it } from 'vitest'
import { formatAge, formatBilling, formatBytes, formatDuration, formatInstanceType, formatTime } from './format'
import { makeInstance } from './test-instances'

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
})

describe('sizes and durations', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [3.5 * 1024 * 1024, '3.5 MiB'],
    [150 * 1024 * 1024, '150 MiB'],
    [5 * 1024 ** 4, '5.0 TiB']
  ])('%d bytes → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text))

  it.each([
    [400, '1 s'],
    [8_000, '8 s'],
    [200_000, '3 min 20 s'],
    [720_000, '12 min'],
    [7_500_000, '2 h 5 min'],
    [3_600_000, '1 h']
  ])('%d ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text))
})
