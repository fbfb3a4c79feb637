/**
 * Windows Credential Manager keeps at most 2560 bytes per credential (CRED_MAX_CREDENTIAL_BLOB_SIZE),
 * and keyring-rs writes UTF-16: 1280 characters. A JWT can be longer, so a long secret is split
 * across entries (`account`, `account#2`, …), the first saying how many there are. Pure, over
 * any store with get/set/delete; the short secrets of today stay one plain entry, readable by
 * older versions.
 */

/** Characters per entry: below Windows' 1280, with room for the header. */
export const CHUNK_CHARS = 1200
const HEADER = /^\u0001cloud-tray-chunks:(\d{1,3})\n/

export interface RawStore {
  get(account: string): Promise<string | null>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<void>
}

const partAccount = (account: string, index: number): string => (index === 0 ? account : `${account}#${index + 1}`)

export function splitSecret(secret: string, size = CHUNK_CHARS): string[] {
  if (secret.length <= size && !HEADER.test(secret)) return [secret]
  const parts: string[] = []
  for (let at = 0; at < secret.length; at += size) parts.push(secret.slice(at, at + size))
  parts[0] = `\u0001cloud-tray-chunks:${parts.length}\n${parts[0]}`
  return parts
}

export function chunkedStore(raw: RawStore, size = CHUNK_CHARS): RawStore {
  const count = (first: string | null): number => Number(first ? (HEADER.exec(first)?.[1] ?? 1) : 0)
  return {
    async get(account) {
      const first = await raw.get(account)
      const parts = count(first)
      if (parts <= 1 || first === null) return first
      const rest = []
      for (let index = 1; index < parts; index++) {
        const part = await raw.get(partAccount(account, index))
        // A part missing (written by a half-finished save): as if nothing were remembered.
        if (part === null) return null
        rest.push(part)
      }
      return [first.replace(HEADER, ''), ...rest].join('')
    },
    async set(account, secret) {
      const before = count(await raw.get(account).catch(() => null))
      const parts = splitSecret(secret, size)
      // The later parts first: the first (with the count) makes the new secret readable only once all are there.
      for (let index = parts.length - 1; index >= 0; index--) await raw.set(partAccount(account, index), parts[index]!)
      for (let index = parts.length; index < before; index++) await raw.delete(partAccount(account, index))
    },
    async delete(account) {
      const parts = Math.max(1, count(await raw.get(account).catch(() => null)))
      for (let index = parts - 1; index >= 0; index--) await raw.delete(partAccount(account, index))
    }
  }
}
