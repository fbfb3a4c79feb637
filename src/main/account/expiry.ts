/**
 * When a session ends, from what the login answered. The JWT `exp` claim is read (not verified:
 * only the server can verify it, and the server will tell us with `not-logged-in` anyway);
 * without one, login time + accessExpire.
 */
import { decodeJwt } from 'jose'

/** Warn the user this long before the session ends. */
export const EXPIRY_WARNING_MS = 10 * 60_000

export function expiresAt(token: string, loggedInAt: number, accessExpire: number): number {
  const exp = jwtExp(token)
  if (exp !== undefined) return exp * 1000
  return fallbackExpiresAt(loggedInAt, accessExpire)
}

/** Unix ms from the JWT's `exp`, when the token is a JWT that has one. */
export function jwtExpiresAt(token: string): number | undefined {
  const exp = jwtExp(token)
  return exp === undefined ? undefined : exp * 1000
}

function jwtExp(token: string): number | undefined {
  try {
    const { exp } = decodeJwt(token)
    return typeof exp === 'number' && Number.isFinite(exp) && exp > 0 ? exp : undefined
  } catch {
    return undefined
  }
}

/**
 * The spec shows 86400 ("one day in seconds"), a duration. Some deployments answer an absolute
 * time instead; values that only make sense as a Unix timestamp are read as one, so a token is
 * never thought to last 50 years.
 */
export function accessExpireMs(accessExpire: number): number {
  if (!Number.isFinite(accessExpire) || accessExpire <= 0) return 0
  return accessExpire * 1000
}

/** Absolute expiry for the `accessExpire` fallback, handling Unix s / ms timestamps. */
export function fallbackExpiresAt(loggedInAt: number, accessExpire: number): number {
  if (accessExpire > 1e12) return accessExpire // Unix ms
  if (accessExpire > 1e9) return accessExpire * 1000 // Unix s
  return loggedInAt + accessExpireMs(accessExpire)
}

/** When to warn: 10 minutes before expiry, or now when less is left. Undefined: too late, expired. */
export function warningAt(expires: number, now: number): number | undefined {
  if (now >= expires) return undefined
  return Math.max(now, expires - EXPIRY_WARNING_MS)
}

export function isExpired(expires: number | undefined, now: number): boolean {
  return expires !== undefined && now >= expires
}
