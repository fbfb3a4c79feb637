/**
 * The known_hosts files the app reads and writes: its own `<dataDir>/known_hosts` (where it
 * remembers keys the user accepted) and the user's `~/.ssh/known_hosts` (read, so hosts already
 * trusted by OpenSSH are trusted here too). Only the explicit "forget" edits the user's file,
 * keeping `known_hosts.old` as `ssh-keygen -R` does.
 */
import { appendFile, copyFile, mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { readTextIfExists } from '../../util/read-text'
import {
  formatKnownHost,
  parseKnownHosts,
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
  constructor(
    /** Written by the app. */
    readonly appFile: string,
    /** Read; only `forget` changes it. */
    readonly userFile: string | undefined
  ) {}

  async check(host: string, port: number, key: PresentedKey): Promise<StoreVerdict> {
    const verdicts: { file: string; verdict: HostKeyVerdict }[] = []
    for (const file of this.files()) verdicts.push({ file, verdict: verifyHostKey(await readEntries(file), host, port, key) })
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

  async remember(host: string, port: number, key: PresentedKey): Promise<void> {
    await mkdir(dirname(this.appFile), { recursive: true })
    const existing = await readTextIfExists(this.appFile)
    const prefix = existing && !existing.endsWith('\n') ? '\n' : ''
    await appendFile(this.appFile, `${prefix}${formatKnownHost(host, port, key)}\n`, { mode: 0o600 })
  }

  /** Removes host:port from both files. Answers how many entries went. */
  async forget(host: string, port: number): Promise<number> {
    let removed = 0
    for (const file of this.files()) {
      const text = await readTextIfExists(file)
      if (text === null) continue
      const result = removeHost(text, host, port)
      if (result.removed === 0) continue
      if (file === this.userFile) await copyFile(file, `${file}.old`)
      await writeFile(file, result.text)
      removed += result.removed
    }
    return removed
  }
}

async function readEntries(file: string): Promise<KnownHostEntry[]> {
  const text = await readTextIfExists(file)
  return text === null ? [] : parseKnownHosts(text)
}
