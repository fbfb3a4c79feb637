/**
 * Money in the emulated cloud: every user's wallet (balance, vouchers, monthly credits) and the
 * meter that charges instances at their price as emulator time passes. GET /balance reads the
 * wallet; `POST /__emulator/balance` sets it; `advance` moves time and so spends it.
 *
 * The rules (README "Balance"), one home each:
 * - `isBilledStatus` (src/shared/instance-rules.ts, the app's too): an instance costs money from
 *   its create until it has stopped or is gone. Booting, stuck and failed starts cost too: the
 *   capacity is held (the real service bills until terminate or stop; hpcai-api-facts.md 2.5).
 * - `hourlyRate` (src/shared/money.ts, the app's too): hourly modes cost their price per hour; a
 *   day, week or month plan costs its price spread evenly over the period's hours (720 for a month).
 * - `Wallet.spend`: vouchers first, then credits, then the balance, which may go below zero
 *   (the real service's billing doc: vouchers and credits are spent before the balance).
 *
 * The meter charges an instance when its status is about to change (at the status it had) and
 * whenever a wallet is read, each time for the span since it last charged it. So the total is
 * exact whatever the order of reads, and a cost guard can read `charged` per instance.
 */
import { isBilledStatus } from '../shared/instance-rules'
import { hourlyRate } from '../shared/money'

export { hourlyRate }

export interface WalletState {
  balance: number
  voucher: number
  credit: number
}

/** What GET /balance answers (hpcai-api-facts.md 2.8), in dollars rounded to cents. */
export interface BalanceAnswer {
  balance: number
  /** What can be spent now: the balance, as nothing is held back in the emulator. */
  availableBalance: number
  availableVoucherAmount: number
  availableCreditAmount: number
}

/** Every account starts with this (the real client's fixture: $100 and a $5 voucher). */
export const STARTING_WALLET: WalletState = { balance: 100, voucher: 5, credit: 0 }

const cents = (value: number): number => Math.round(value * 100) / 100

export class Wallets {
  private readonly wallets = new Map<string, WalletState>()

  constructor(private readonly starting: WalletState = STARTING_WALLET) {}

  get(username: string): WalletState {
    let wallet = this.wallets.get(username)
    if (!wallet) {
      wallet = { ...this.starting }
      this.wallets.set(username, wallet)
    }
    return wallet
  }

  /** Control: sets what the user has; what is not given stays. */
  set(username: string, values: Partial<WalletState>): void {
    for (const [key, value] of Object.entries(values)) {
      if (value !== undefined && !Number.isFinite(value)) throw new RangeError(`${key} must be a finite number of dollars`)
    }
    const wallet = this.get(username)
    Object.assign(wallet, Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)))
  }

  /** Spends `amount`: vouchers first, then credits, then the balance (which may go negative). */
  spend(username: string, amount: number): void {
    if (!(amount > 0)) return
    const wallet = this.get(username)
    let left = amount
    for (const pot of ['voucher', 'credit'] as const) {
      const taken = Math.min(Math.max(wallet[pot], 0), left)
      wallet[pot] -= taken
      left -= taken
    }
    wallet.balance -= left
  }

  answer(username: string): BalanceAnswer {
    const wallet = this.get(username)
    return {
      balance: cents(wallet.balance),
      availableBalance: cents(wallet.balance),
      availableVoucherAmount: cents(wallet.voucher),
      availableCreditAmount: cents(wallet.credit)
    }
  }

  all(): Record<string, WalletState> {
    return Object.fromEntries([...this.wallets].map(([user, wallet]) => [user, { ...wallet }]))
  }

  restore(saved: Record<string, WalletState>): void {
    for (const [user, wallet] of Object.entries(saved)) this.set(user, wallet)
  }
}

/** What the meter needs of an instance record (instance-record.ts's EmuInstance has it). */
export interface Metered {
  owner: string
  status: string
  createAtUnixMs: number
  billing: { chargeMode: string; price: number }
  /** Emulator ms up to which this instance has been charged; absent: since its create. */
  meteredUntil?: number
  /** Dollars charged to it so far. */
  charged?: number
}

export class Meter {
  constructor(private readonly wallets: Wallets) {}

  /** Charges the instance for the span since it was last charged, at its current status. */
  charge(record: Metered, now: number): void {
    const from = record.meteredUntil ?? record.createAtUnixMs
    record.meteredUntil = Math.max(from, now)
    if (now <= from || !isBilledStatus(record.status)) return
    const amount = (hourlyRate(record.billing) * (now - from)) / 3_600_000
    record.charged = (record.charged ?? 0) + amount
    this.wallets.spend(record.owner, amount)
  }
}
