import { describe, expect, it } from 'vitest'
import type { Balance } from '../../shared/balance'
import { ManualClock, flushAsync } from '../../shared/clock'
import type { BalanceSnapshot, EventName } from '../../shared/contract'
import type { EventSink } from '../core-types'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { BALANCE_INTERVAL_MS, BalanceModel } from './balance-model'
import { LowBalanceMemory } from './low-balance-memory'

const scratch = mkdtempSync(join(tmpdir(), 'cloudtray-balance-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0

const amount = (available: number): Balance => ({
  balance: available,
  availableBalance: available,
  availableVoucherAmount: 0,
  availableCreditAmount: 0
})

function rig(start = 100, dataDir = join(scratch, String(folders++))) {
  const clock = new ManualClock(1_000)
  let account: string | undefined = 'sandbox/demo'
  const memory = new LowBalanceMemory(dataDir)
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
    emit: ((event: EventName, snapshot: BalanceSnapshot) => void heard.push(snapshot)) as EventSink,
    account: () => account,
    warned: memory
  })
  return {
    clock,
    model,
    memory,
    dataDir,
    signInAs: (key: string | undefined) => void (account = key),
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

  it('warns once per dip, not again at the next sign-in or start; another account has its own dip (#24)', async () => {
    const r = rig(5)
    r.model.started()
    await flushAsync()
    expect(r.warnings).toEqual(['5 < 10'])
    // Sign out and in again, still low: no second warning.
    r.model.ending()
    r.model.started()
    await flushAsync()
    expect(r.warnings).toEqual(['5 < 10'])
    // Another account, low too: its own warning.
    r.model.ending()
    r.signInAs('hpc-ai/ada')
    r.model.started()
    await flushAsync()
    expect(r.warnings).toEqual(['5 < 10', '5 < 10'])
    // A restart (a new model over the same data folder) remembers both dips.
    await r.memory.flushed()
    const restarted = rig(5, r.dataDir)
    await restarted.memory.load()
    restarted.model.started()
    await flushAsync()
    expect(restarted.warnings).toEqual([])
    // Back above the level, then down again: a new dip, a new warning.
    restarted.set(50)
    await restarted.clock.advanceAsync(BALANCE_INTERVAL_MS)
    restarted.set(4)
    await restarted.clock.advanceAsync(BALANCE_INTERVAL_MS)
    expect(restarted.warnings).toEqual(['4 < 10'])
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
      emit: () => {},
      account: () => 'sandbox/demo',
      warned: r.memory
    })
    slow.started()
    slow.ending()
    release()
    await flushAsync()
    expect(slow.snapshot().balance).toBeNull()
    expect(r.warnings).toEqual([])
  })
})
