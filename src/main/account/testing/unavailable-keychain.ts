/**
 * A keychain that is not there at all (no Secret Service, a locked-down desktop): every call
 * fails as the OS keychain's does when it cannot be reached, and a probe says it cannot store.
 */
import type { Keychain } from '../../core-types'
import { KeychainUnavailableError } from '../keychain'

export function unavailableKeychain(): Keychain {
  const unreachable = async (): Promise<never> => {
    throw new KeychainUnavailableError()
  }
  return { get: unreachable, set: unreachable, delete: unreachable, probe: async () => false }
}
