/**
 * The account's money: GET /balance (undocumented; hpcai-api-facts.md 2.8), amounts in US
 * dollars. Read tolerantly: any amount may be missing or null (unknown, never zero), but an
 * answer with neither `balance` nor `availableBalance` is not a balance.
 */
import { z } from 'zod'

const amount = z
  .number()
  .finite()
  .nullable()
  .optional()
  .catch(null)
  .transform((value) => value ?? null)

export const BalanceResponseSchema = z
  .object({
    balance: amount,
    availableBalance: amount,
    availableVoucherAmount: amount,
    availableCreditAmount: amount
  })
  .refine((answer) => answer.balance !== null || answer.availableBalance !== null, { message: 'no balance in the answer' })

export type Balance = z.output<typeof BalanceResponseSchema>

/** What can be spent now: the available balance, else the balance. */
export function availableOf(balance: Balance): number {
  return balance.availableBalance ?? balance.balance ?? 0
}

/** Vouchers and credits, spent before the balance; 0 when the service does not say. */
export function extrasOf(balance: Balance): number {
  return (balance.availableVoucherAmount ?? 0) + (balance.availableCreditAmount ?? 0)
}

/** What usage can still be paid with: the available balance and the vouchers and credits spent before it (the cost guard's runway). */
export function spendableOf(balance: Balance): number {
  return availableOf(balance) + extrasOf(balance)
}
