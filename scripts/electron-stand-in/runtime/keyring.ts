/**
 * `@napi-rs/keyring` under the harness: the OS keychain is not Electron, but a first launch
 * depends on how it answers, so it is stood in too. `memory` keeps entries in this process;
 * `never-answers` leaves every call pending forever (a locked keyring whose unlock prompt nobody
 * answers, or a Secret Service that hangs), ignoring abort signals as a call already running in
 * the native thread pool would.
 */
import { options, record } from './channel'

const entries = new Map<string, string>()
const never = <T>(): Promise<T> => new Promise<T>(() => {})

export class AsyncEntry {
  private readonly key: string
  constructor(
    readonly service: string,
    readonly account: string
  ) {
    this.key = `${service}\n${account}`
  }
  async getPassword(): Promise<string | null> {
    record('keyring.getPassword', undefined, [this.service, this.account])
    if (options.keychain === 'never-answers') return never()
    return entries.get(this.key) ?? null
  }
  async setPassword(password: string): Promise<void> {
    record('keyring.setPassword', undefined, [this.service, this.account])
    if (options.keychain === 'never-answers') return never()
    entries.set(this.key, password)
  }
  async deletePassword(): Promise<boolean> {
    record('keyring.deletePassword', undefined, [this.service, this.account])
    if (options.keychain === 'never-answers') return never()
    return entries.delete(this.key)
  }
}

export class Entry {
  constructor() {
    throw new Error('The keychain stand-in models only AsyncEntry, which is what the app uses.')
  }
}
