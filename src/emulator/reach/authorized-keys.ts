/**
 * Public-key authentication against the owner's registered keys, as OpenSSH's
 * authorized_keys check does: the offered key must be one of them, and when the client sends a
 * signature it must verify against that key (ssh2 leaves the verification to the server).
 */
import ssh2 from 'ssh2'
import type { ParsedKey, PublicKeyAuthContext } from 'ssh2'

/** Parses `ssh-ed25519 AAAA… comment` lines; lines ssh2 cannot read are skipped (and reported). */
export function parseAuthorizedKeys(lines: string[], onBadLine: (line: string) => void = () => {}): ParsedKey[] {
  const keys: ParsedKey[] = []
  for (const line of lines) {
    const text = line.trim()
    if (text === '' || text.startsWith('#')) continue
    const parsed = ssh2.utils.parseKey(text)
    const key = Array.isArray(parsed) ? parsed[0] : parsed
    if (!key || key instanceof Error) onBadLine(text)
    else keys.push(key)
  }
  return keys
}

export type PublicKeyDecision = 'accept' | 'reject'

/**
 * Without a signature the client only asks whether the key would do (it has not proved it holds
 * the private key yet): answering "yes" there is what lets it go on to sign.
 */
export function decidePublicKey(
  offered: Pick<PublicKeyAuthContext, 'key' | 'signature' | 'blob' | 'hashAlgo'>,
  allowed: ParsedKey[]
): PublicKeyDecision {
  const match = allowed.find((key) => key.getPublicSSH().equals(offered.key.data))
  if (!match) return 'reject'
  if (offered.signature === undefined) return 'accept'
  if (offered.blob === undefined) return 'reject'
  return match.verify(offered.blob, offered.signature, offered.hashAlgo) === true ? 'accept' : 'reject'
}
