/**
 * What a shell gives the core (createAppCore in core.ts): its Platform, where the data lives, the
 * keychain, the log, and where the cloud or the Sandbox comes from (the account's options).
 */
import type { Clock } from '../shared/clock'
import type { AccountOptions } from './account/account'
import type { Platform } from './core-types'
import type { SshEnvironment } from './ssh/ssh-wing'
import type { UpdateEngine } from './update/update-service'

export type AppCoreOptions = Pick<
  AccountOptions,
  'dataDir' | 'keychain' | 'log' | 'baseUrlOverride' | 'cloudClientFactory' | 'network' | 'startEmulator' | 'reach'
> & {
  platform: Platform
  /** The installed app's update engine (electron-updater, update/updater-adapter.ts); absent: no updates. */
  updater?: UpdateEngine
  clock?: Clock
  version: string
  /** [0, 1) for poll jitter; injectable for deterministic tests. */
  random?: () => number
  /** Where the SSH wing finds ~/.ssh (its config, keys, known_hosts); default: the user's own. */
  sshEnvironment?: SshEnvironment
  /** How often the availability watch reads the catalog (default 60 s). */
  stockCheckIntervalMs?: number
}
