/**
 * The SSH host key of the emulator's built-in servers: one key per emulator state, shared by
 * every instance, so a client that remembered it (known_hosts) keeps trusting it across restarts
 * and a changed key really means something changed.
 */
import ssh2 from 'ssh2'
import { readStateFile, writeStateFile } from './state-files'

const HOST_KEY_FILE = 'ssh_host_ed25519_key'

export interface HostKey {
  /** OpenSSH private key text, as ssh2's Server `hostKeys` takes it. */
  privateKey: string
  /** `ssh-ed25519 AAAA…` line, for a known_hosts entry written by hand or by a test. */
  publicKey: string
}

/** Loads the host key kept in `stateDir`, making it on first start. Without a state dir the key lives as long as the process. */
export async function loadOrCreateHostKey(stateDir: string | undefined): Promise<HostKey> {
  if (stateDir !== undefined) {
    const existing = await readStateFile(stateDir, HOST_KEY_FILE)
    if (existing !== undefined) return { privateKey: existing, publicKey: publicKeyOf(existing) }
  }
  const pair = ssh2.utils.generateKeyPairSync('ed25519', { comment: 'cloud-tray-emulator' })
  if (stateDir !== undefined) await writeStateFile(stateDir, HOST_KEY_FILE, pair.private)
  return { privateKey: pair.private, publicKey: publicKeyOf(pair.private) }
}

function publicKeyOf(privateKeyText: string): string {
  const parsed = ssh2.utils.parseKey(privateKeyText)
  const key = Array.isArray(parsed) ? parsed[0] : parsed
  if (!key || key instanceof Error) {
    throw new Error(`The emulator's SSH host key file (${HOST_KEY_FILE}) is damaged; delete it to make a new one.`)
  }
  return `${key.type} ${key.getPublicSSH().toString('base64')}`
}
