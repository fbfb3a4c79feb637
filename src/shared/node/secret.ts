/** The web shell's per-run secret, and the constant-time comparison every token check uses. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 32 random bytes as hex: the secret of one run. */
export function createSecret(): string {
  return randomBytes(32).toString('hex')
}

/** Constant-time comparison of two strings of possibly different lengths. */
export function secretsMatch(offered: string, expected: string): boolean {
  // Hash both so the comparison runs on equal lengths and leaks nothing about the length either.
  const a = createHash('sha256').update(offered).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}
