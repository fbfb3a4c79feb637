import { describe, expect, it } from 'vitest'
import type { Balance } from '../../shared/balance'
import { ManualClock, flushAsync } from '../../shared/clock'
import type { BalanceSnapshot, EventName } from '../../shared/contract'
import type { EventSink } from '../core-types'
import { BALANCE_INTERVAL_MS, BalanceModel } from './balance-model'

const amount = (available: number): Balance => ({
  balance: available,
  availableBalance: available,
  availableVoucherAmount: 0,
  availableCreditAmount: 0
})

function rig(start = 100) {
  const clock = new ManualClock(1_000)
  let available = start
  let failing = false
  let threshold: number | null = 10
  const warnings: string[] = []
  const heard: BalanceSnapshot[] = []
  let reads = 0
  const model = new BalanceModel({
    clock,
    fetch: async () => {
      reads++
      if (failing) throw new Error('offline')
      return amount(available)
    },
    toErrorInfo: (error) => ({ kind: 'network', message: (error as Error).message }),
    threshold: () => threshold,
    low: (value, limit) => void warnings.push(`${value} < ${limit}`),
    emit: ((event: EventName, snapshot: BalanceSnapshot) => void heard.push(snapshot)) as EventSink
  })
  return {
    clock,
    model,
    warnings,
    heard,
    reads: () => reads,
    set: (value: number) => void (available = value),
    fail: (value: boolean) => void (failing = value),
    threshold: (value: number | null) => void (threshold = value)
  }
}

describe('BalanceModel', () => {
  it('reads when a session starts, then every minute, and tells the hub of each change', async () => {
    const r = rig()
    expect(r.model.snapshot()).toEqual({ balance: null, fetchedAt: null })
    r.model.started()
    await flushAsync()
    expect(r.model.snapshot()).toEqual({ balance: amount(100), fetchedAt: 1_000 })
    r.set(97.5)
    await r.clock.advanceAsync(BALANCE_INTERVAL_MS)
    expect(r.model.snapshot().balance?.availableBalance).toBe(97.5)
    expect(r.heard.map((s) => s.balance?.availableBalance)).toEqual([100, 97.5])
    expect(r.reads()).toBe(2)
  })

  it('warns once per dip below the threshold, again after it recovers, and when the threshold changes', async () => {
    const r = rig(50)
    r.model.started()
    await flushAsync()
    r.set(9)
    await r.clock.advanceAsync(BALANCE_INTERVAL_MS)
    r.set(8)
    await r.clock.advanceAsync(BALANCE_INTERVAL_MS)
    expect(r.warnings).toEqual(['9 < 10'])
    r.set(20)
    await r.clock.advanceAsync(BALANCE_INTERVAL_MS)
    r.set(5)
    await r.clock.advanceAsync(BALANCE_INTERVAL_MS)
    expect(r.warnings).toEqual(['9 < 10', '5 < 10'])
    r.threshold(4)
    r.model.thresholdChanged()
    r.threshold(30)
    r.model.thresholdChanged()
    expect(r.warnings).toEqual(['9 < 10', '5 < 10', '5 < 30'])
    r.threshold(null)
    r.model.thresholdChanged()
    r.set(1)
    await r.clock.advanceAsync(BALANCE_INTERVAL_MS)
    expect(r.warnings).toHaveLength(3)
  })

  it('keeps the last amount with the error when a read fails; signing out forgets it and stops reading', async () => {
    const r = rig()
    r.model.started()
    await flushAsync()
    r.fail(true)
    await r.clock.advanceAsync(BALANCE_INTERVAL_MS)
    expect(r.model.snapshot()).toEqual({ balance: amount(100), fetchedAt: 1_000, error: { kind: 'network', message: 'offline' } })
    r.model.ending()
    expect(r.model.snapshot()).toEqual({ balance: null, fetchedAt: null })
    const reads = r.reads()
    await r.clock.advanceAsync(10 * BALANCE_INTERVAL_MS)
    expect(r.reads()).toBe(reads)
    await r.model.refresh()
    expect(r.reads()).toBe(reads)
  })

  it('an answer for an ended session is dropped', async () => {
    const r = rig()
    let release: () => void = () => {}
    const slow = new BalanceModel({
      clock: r.clock,
      fetch: () => new Promise<Balance>((resolve) => (release = () => resolve(amount(1)))),
      toErrorInfo: () => ({ kind: 'network', message: '' }),
      threshold: () => 10,
      low: () => void r.warnings.push('low'),
      emit: () => {}
    })
    slow.started()
    slow.ending()
    release()
    await flushAsync()
    expect(slow.snapshot().balance).toBeNull()
    expect(r.warnings).toEqual([])
  })
})
