/**
 * The known_hosts files the app reads and writes: its own `<dataDir>/known_hosts` (where it
 * remembers keys the user accepted) and the user's `~/.ssh/known_hosts` (read, so hosts already
 * trusted by OpenSSH are trusted here too). Only the explicit "forget" edits the user's file,
 * keeping `known_hosts.old` as `ssh-keygen -R` does.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writeFileAtomic } from '../../../shared/node/atomic-write'
import { readTextIfExists } from '../../util/read-text'
import {
  formatKnownHost,
  parseKnownHosts,
  recordedInstance,
  recordedKeyTypes,
  removeHost,
  verifyHostKey,
  type HostKeyVerdict,
  type KnownHostEntry,
  type PresentedKey
} from './known-hosts'

export type StoreVerdict =
  | { status: 'known' }
  | { status: 'unknown' }
  | { status: 'changed'; previous: KnownHostEntry; file: string }
  | { status: 'revoked'; file: string }

export class KnownHostsStore {
  /** Remembering rewrites the app's file: one at a time, so two accepted keys both stay. */
  private writes: Promise<unknown> = Promise.resolve()

  constructor(
    /** Written by the app. */
    readonly appFile: string,
    /** Read; only `forget` changes it. */
    readonly userFile: string | undefined
  ) {}

  /**
   * `instanceId`: the instance the cloud says answers at host:port. A key the app recorded at
   * that address for another instance does not count (the address was given to a new machine);
   * the user is asked as for any new instance.
   */
  async check(host: string, port: number, key: PresentedKey, instanceId?: string): Promise<StoreVerdict> {
    const verdicts: { file: string; verdict: HostKeyVerdict }[] = []
    for (const file of this.files()) {
      const entries = await readEntries(file)
      const relevant =
        file === this.appFile && instanceId !== undefined ? entries.filter((entry) => !ofAnotherInstance(entry, key, instanceId)) : entries
      verdicts.push({ file, verdict: verifyHostKey(relevant, host, port, key) })
    }
    const revoked = verdicts.find((item) => item.verdict.status === 'revoked')
    if (revoked) return { status: 'revoked', file: revoked.file }
    // A match in either file is trust (OpenSSH reads all its known_hosts files as one list); a
    // conflicting entry anywhere, of any key type, still wins over "unknown".
    if (verdicts.some((item) => item.verdict.status === 'known')) return { status: 'known' }
    for (const item of verdicts) {
      if (item.verdict.status === 'changed') return { status: 'changed', previous: item.verdict.previous, file: item.file }
    }
    return { status: 'unknown' }
  }

  /** Key types already recorded for the host, so the handshake can prefer them as OpenSSH does. */
  async knownKeyTypes(host: string, port: number): Promise<string[]> {
    const types: string[] = []
    for (const file of this.files()) for (const type of recordedKeyTypes(await readEntries(file), host, port)) types.push(type)
    return [...new Set(types)]
  }

  private files(): string[] {
    return [this.appFile, ...(this.userFile ? [this.userFile] : [])]
  }

  /**
   * Trusts the key for host:port from now on. Whatever the app's file held for that address
   * goes: `check` answered "unknown", so it was another instance's, and keeping it would let
   * that machine's key pass for the new one.
   */
  remember(host: string, port: number, key: PresentedKey, instanceId?: string): Promise<void> {
    const write = this.writes.then(async () => {
      await mkdir(dirname(this.appFile), { recursive: true })
      const { text } = removeHost((await readTextIfExists(this.appFile)) ?? '', host, port)
      const kept = text === '' || text.endsWith('\n') ? text : `${text}\n`
      await writeFileAtomic(this.appFile, `${kept}${formatKnownHost(host, port, key, instanceId)}\n`, 0o600)
    })
    this.writes = write.catch(() => undefined)
    return write
  }

  /** Removes host:port from both files. Answers how many entries went. */
  forget(host: string, port: number): Promise<number> {
    const write = this.writes.then(async () => {
      let removed = 0
      for (const file of this.files()) {
        const text = await readTextIfExists(file)
        if (text === null) continue
        const result = removeHost(text, host, port)
        if (result.removed === 0) continue
        if (file === this.userFile) {
          await copyFile(file, `${file}.old`)
          // The user's own file, edited in place as `ssh-keygen -R` does: its mode and owner stay.
          await writeFile(file, result.text)
        } else {
          await writeFileAtomic(file, result.text, 0o600)
        }
        removed += result.removed
      }
      return removed
    })
    this.writes = write.catch(() => undefined)
    return write
  }
}

/** An entry the app recorded for another instance, with another key. */
function ofAnotherInstance(entry: KnownHostEntry, key: PresentedKey, instanceId: string): boolean {
  const recorded = recordedInstance(entry)
  return recorded !== undefined && recorded !== instanceId && entry.keyBase64 !== key.keyBase64
}

async function readEntries(file: string): Promise<KnownHostEntry[]> {
  const text = await readTextIfExists(file)
  return text === null ? [] : parseKnownHosts(text)
}
