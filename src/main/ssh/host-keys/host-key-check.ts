/**
 * The host-key decision for one handshake, separated from ssh2 so it reads as policy: known
 * keys pass; keys accepted "once" pass for the rest of the app session; a host with no key on
 * record asks the user; a changed key (any other key while the host has keys on record, also
 * one of a new type, as OpenSSH judges it) or a revoked key is refused with both fingerprints
 * and never asks.
 */
import type { PromptAnswer } from '../../../shared/contract-ssh'
import { keyTypeOfBlob, sha256Fingerprint } from './known-hosts'
import type { KnownHostsStore } from './known-hosts-store'
import type { PromptQuestion } from '../auth/prompts'

export type HostKeyRefusal =
  | { reason: 'changed'; message: string; oldFingerprint: string; newFingerprint: string; file: string }
  | { reason: 'revoked'; message: string }
  | { reason: 'rejected'; message: string }
  /** A background connection met a host with no key on record: only the user may decide. */
  | { reason: 'unknown'; message: string; fingerprint: string }

export interface HostKeyCheckOptions {
  host: string
  port: number
  /** The instance the cloud says answers there: a key recorded there for another one is not this machine's. */
  instanceId?: string | undefined
  store: KnownHostsStore
  /** Keys accepted "once" in this app session: `host:port keytype base64`. */
  acceptedOnce: Set<string>
  /** Asks the user; absent for a background connection, which never asks (an unknown key is refused). */
  ask?: ((question: PromptQuestion) => Promise<PromptAnswer>) | undefined
  /** For the changed-key warning: sent, not awaited (the only way out is ssh.forgetHostKey). */
  tell: (question: PromptQuestion) => void
}

/** Resolves null when the key is trusted, else why not. */
export async function checkHostKey(options: HostKeyCheckOptions, keyBlob: Buffer): Promise<HostKeyRefusal | null> {
  const { host, port, store } = options
  const keyType = keyTypeOfBlob(keyBlob)
  const keyBase64 = keyBlob.toString('base64')
  const fingerprint = sha256Fingerprint(keyBlob)
  const verdict = await store.check(host, port, { keyType, keyBase64 }, options.instanceId)
  const onceKey = `${host}:${port} ${keyType} ${keyBase64}`
  switch (verdict.status) {
    case 'known':
      return null
    case 'revoked':
      return {
        reason: 'revoked',
        message: `The host key of ${host}:${port} (${fingerprint}) is marked revoked in ${verdict.file}. The connection was refused.`
      }
    case 'changed': {
      const oldFingerprint = sha256Fingerprint(Buffer.from(verdict.previous.keyBase64, 'base64'))
      const oldKeyType = verdict.previous.keyType
      const was = oldKeyType === keyType ? oldFingerprint : `${oldKeyType} key ${oldFingerprint}`
      const now = oldKeyType === keyType ? fingerprint : `${keyType} key ${fingerprint}`
      options.tell({
        kind: 'host-key-changed',
        host,
        port,
        keyType,
        oldKeyType,
        oldFingerprint,
        newFingerprint: fingerprint,
        knownHostsFile: verdict.file
      })
      return {
        reason: 'changed',
        oldFingerprint,
        newFingerprint: fingerprint,
        file: verdict.file,
        message:
          `WARNING: the host key of ${host}:${port} has changed (was ${was}, now ${now}). ` +
          `Someone may be intercepting the connection, or the instance was rebuilt. The connection was refused; ` +
          `if you know why the key changed, remove the old key and reconnect.`
      }
    }
    case 'unknown': {
      if (options.acceptedOnce.has(onceKey)) return null
      if (!options.ask) {
        return {
          reason: 'unknown',
          fingerprint,
          message: `The host key of ${host}:${port} (${fingerprint}) is not trusted yet. Open a terminal to the instance once to check and accept it.`
        }
      }
      const answer = await options.ask({ kind: 'host-key', host, port, keyType, fingerprint })
      if (answer.kind === 'host-key' && answer.decision === 'accept-and-remember') {
        await store.remember(host, port, { keyType, keyBase64 }, options.instanceId)
        return null
      }
      if (answer.kind === 'host-key' && answer.decision === 'accept-once') {
        options.acceptedOnce.add(onceKey)
        return null
      }
      return { reason: 'rejected', message: `You did not accept the host key of ${host}:${port}, so the app did not connect.` }
    }
  }
}

/** ssh2 host-key algorithm names for a known_hosts key type (RSA keys sign with SHA-2 variants). */
export function hostKeyAlgorithmsFor(keyType: string): string[] {
  switch (keyType) {
    case 'ssh-rsa':
      return ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa']
    case 'ssh-ed25519':
    case 'ecdsa-sha2-nistp256':
    case 'ecdsa-sha2-nistp384':
    case 'ecdsa-sha2-nistp521':
      return [keyType]
    default:
      return []
  }
}
