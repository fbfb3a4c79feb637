/**
 * What a failed sign-in tells the user: the retries left before a lockout, until when a lockout
 * lasts, which server could not be reached and where to fix its address.
 */
import type { ErrorInfo, SignInMethod } from '../../../shared/contract'
import { formatClock } from '../lib/format'

export interface LoginProblem {
  text: string
  hint?: string
  /** Offer a way to Settings (the profile's address may be wrong). */
  suggestSettings: boolean
}

export function describeLoginError(problem: ErrorInfo, baseUrl: string | undefined, method: SignInMethod = 'password'): LoginProblem {
  if (problem.lockedUntil !== undefined) {
    return {
      text: `Too many wrong passwords: this account is locked until ${formatClock(problem.lockedUntil)}.`,
      hint: 'Wait until then, or reset the password with your provider.',
      suggestSettings: false
    }
  }
  switch (problem.kind) {
    case 'bad-credentials':
      // Main's words for a refused key already say what to do (copy it whole, or make a new one).
      if (method === 'api-key') return { text: problem.message, suggestSettings: false }
      return {
        text:
          problem.retriesLeft !== undefined
            ? `Wrong user name or password. ${problem.retriesLeft} ${problem.retriesLeft === 1 ? 'attempt' : 'attempts'} left before the account locks.`
            : 'Wrong user name or password.',
        hint: 'Check both and try again.',
        suggestSettings: false
      }
    // Main's words already name the server and what to do; said once, with the way to Settings.
    case 'network':
      return {
        text: baseUrl && !problem.message.includes(hostOf(baseUrl)) ? `Could not reach ${baseUrl}: ${problem.message}` : problem.message,
        suggestSettings: true
      }
    default:
      return { text: problem.message, suggestSettings: false }
  }
}

function hostOf(address: string): string {
  try {
    return new URL(address).host
  } catch {
    return address
  }
}
