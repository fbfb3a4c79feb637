import { describe, expect, it } from 'vitest'
import {
  chargeModeUnit,
  formatAge,
  formatBilling,
  formatBytes,
  formatDuration,
  formatGpu,
  formatHourlyPrice,
  formatInstanceType,
  formatTime,
  priceLabel,
  typeLabel
} from './format'
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

  it("shows the spec's 0 timestamps as a dash", () => {
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

describe("#15: the list's columns", () => {
  const base = makeInstance({ id: 'i', name: 'n', owner: 'u', sshAddress: 'h' })
  const withType = (gpu: { amount: number; type: string }, billing: { chargeMode: string; price: number }) => ({
    ...base,
    instanceSpecInfo: {
      ...base.instanceSpecInfo,
      instanceTypeInfo: { ...base.instanceSpecInfo.instanceTypeInfo, gpu: { ...gpu, unit: 'GPU' } },
      instanceBillingInfo: { ...base.instanceSpecInfo.instanceBillingInfo, ...billing, unit: '$' }
    }
  })

  it('the GPU without the vendor, or CPU only; the price per hour, plans spread over their hours', () => {
    expect(formatGpu(withType({ amount: 8, type: 'NVIDIA H100 80GB HBM3' }, { chargeMode: 'perHour', price: 19.92 }))).toBe(
      '8 × H100 80GB HBM3'
    )
    expect(formatGpu(withType({ amount: 0, type: '' }, { chargeMode: 'perHour', price: 0.24 }))).toBe('CPU only')
    expect(formatHourlyPrice(withType({ amount: 1, type: 'x' }, { chargeMode: 'perHour', price: 2.49 }))).toBe('$2.49/h')
    expect(formatHourlyPrice(withType({ amount: 1, type: 'x' }, { chargeMode: 'perDay', price: 48 }))).toBe('$2.00/h')
    expect(formatHourlyPrice(withType({ amount: 1, type: 'x' }, { chargeMode: 'perDecade', price: 48 }))).toBe('—')
  })

  it('a catalog type by GPU; a price the catalog does not know is unknown', () => {
    expect(typeLabel({ gpuName: 'B200-SXM-180GB-SPOT', gpuNum: 8 })).toBe('8 × B200-SXM-180GB-SPOT')
    expect(typeLabel({ gpuName: '', gpuNum: 0 })).toBe('CPU only')
    expect(priceLabel(undefined, 'perWeek')).toBe('price unknown')
    expect(priceLabel(0, 'perHour')).toBe('$0.00 / hour')
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
