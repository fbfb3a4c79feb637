import { describe, expect, it } from 'vitest'
import { balanceCheck } from './review-balance'

describe('the review compares the cost with the balance (#24)', () => {
  it('says how long the balance lasts at this price, and with what already runs', () => {
    expect(balanceCheck({ hourlyRate: 2.5, spendable: 105, runningPerHour: 0 })).toEqual({
      text: 'Your balance of $105.00 lasts ≈ 42 h at this price.'
    })
    expect(balanceCheck({ hourlyRate: 2.5, spendable: 105, runningPerHour: 10 })?.text).toBe(
      'Your balance of $105.00 lasts ≈ 42 h at this price, ≈ 8 h with what already runs ($10.00/h).'
    )
  })

  it('warns before Launch when the plan costs more than the balance', () => {
    // The case: a $197.58 plan with $105 available.
    const check = balanceCheck({ hourlyRate: 197.58 / 24, planTotal: 197.58, spendable: 105, runningPerHour: 0 })
    expect(check?.warning).toBe(
      'This plan costs $197.58, more than your balance of $105.00. Top up first, or choose a shorter plan or a cheaper type.'
    )
    expect(balanceCheck({ hourlyRate: 1, planTotal: 24, spendable: 105, runningPerHour: 0 })?.warning).toBeUndefined()
  })

  it('warns when an hourly launch would spend the balance within the hour, or nothing is left', () => {
    expect(balanceCheck({ hourlyRate: 19.92, spendable: 15, runningPerHour: 0 })?.warning).toBe(
      'At $19.92/h your balance of $15.00 is spent within the hour. Top up first, or choose a cheaper type.'
    )
    expect(balanceCheck({ hourlyRate: 2, spendable: 3, runningPerHour: 2 })?.warning).toMatch(/within the hour/)
    expect(balanceCheck({ hourlyRate: 2, spendable: -4, runningPerHour: 0 })).toEqual({
      text: 'Your balance is −$4.00: nothing is left to pay for this.',
      warning: 'Top up your balance before you launch.'
    })
  })

  it('says nothing it cannot know: an unknown price; an unread balance says so', () => {
    expect(balanceCheck({ hourlyRate: undefined, spendable: 100, runningPerHour: 0 })).toBeUndefined()
    expect(balanceCheck({ hourlyRate: 2, spendable: undefined, runningPerHour: 0 })?.text).toMatch(/could not be read/)
  })
})
