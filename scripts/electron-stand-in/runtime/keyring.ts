/**
 * `@napi-rs/keyring` under the harness: the OS keychain is not Electron, but a first launch
 * depends on how it answers, so it is stood in too, as @napi-rs/keyring 2.1 behaves:
 * - `memory`: a working store (a Secret Service, Keychain, Credential Manager) in this process;
 * - `never-answers`: every call pending forever (a locked keyring whose unlock prompt nobody
 *   answers), ignoring abort signals as a call already running in the native thread pool would;
 * - `no-secret-service`: a Linux desktop without a Secret Service. An entry pinned to
 *   `{ linux: { store: 'secret-service' } }` throws; an unpinned one falls back, silently, to the
 *   kernel keyring, which keeps secrets only until reboot (the library's README);
 * - `module-missing`: this system's native binary is not installed (a cross-arch build): the
 *   module throws when loaded, as napi-rs's loader does.
 */
import { options, record } from './channel'

if (options.keychain === 'module-missing') {
  record('keyring.load', undefined, ['failed'])
  throw new Error('Cannot find native binding. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828).')
}

const entries = new Map<string, string>()
const never = <T>(): Promise<T> => new Promise<T>(() => {})

type EntryOptions = { linux?: { store?: 'secret-service' | 'keyutils' } } | null | undefined

export class AsyncEntry {
  private readonly key: string
  /** Where this entry's secret lives: the keychain, or (unpinned, no Secret Service) the kernel keyring. */
  readonly store: 'keychain' | 'kernel-keyring'
  constructor(
    readonly service: string,
    readonly account: string,
    entryOptions?: EntryOptions
  ) {
    this.key = `${service}\n${account}`
    const pinned = entryOptions?.linux?.store
    this.store = options.keychain === 'no-secret-service' ? 'kernel-keyring' : 'keychain'
    if (options.keychain === 'no-secret-service' && pinned === 'secret-service') {
      record('keyring.new', undefined, [service, account, entryOptions, 'no Secret Service'])
      throw new Error(
        'Platform secure storage failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files'
      )
    }
  }
  async getPassword(): Promise<string | null> {
    record('keyring.getPassword', undefined, [this.service, this.account, this.store])
    if (options.keychain === 'never-answers') return never()
    return entries.get(this.key) ?? null
  }
  async setPassword(password: string): Promise<void> {
    record('keyring.setPassword', undefined, [this.service, this.account, this.store])
    if (options.keychain === 'never-answers') return never()
    entries.set(this.key, password)
  }
  async deletePassword(): Promise<boolean> {
    record('keyring.deletePassword', undefined, [this.service, this.account, this.store])
    if (options.keychain === 'never-answers') return never()
    return entries.delete(this.key)
  }
}

export class Entry {
  constructor() {
    throw new Error('The keychain stand-in models only AsyncEntry, which is what the app uses.')
  }
}
