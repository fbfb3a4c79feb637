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
  const privateKey = generateEd25519PrivateKey('cloud-tray-emulator')
  if (stateDir !== undefined) await writeStateFile(stateDir, HOST_KEY_FILE, privateKey)
  return { privateKey, publicKey: publicKeyOf(privateKey) }
}

/**
 * An ed25519 private key in OpenSSH format that ssh2 (and OpenSSH) can read back.
 *
 * ssh2 1.17's generateKeyPairSync drops a leading zero byte of the public key (about 1 key in
 * 256 comes out 31 bytes long and "Malformed"), so each key is read back before it is used.
 */
export function generateEd25519PrivateKey(comment: string): string {
  return generateEd25519KeyPair(comment).private
}

/**
 * ssh2 1.17 now and then makes an ed25519 key that it cannot read back ("Malformed"); a key
 * saved like that would break every later login, so each key is read back and remade if needed.
 */
export function generateEd25519KeyPair(comment: string): { private: string; public: string } {
  for (let attempt = 0; attempt < 20; attempt++) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519', { comment })
    const parsed = ssh2.utils.parseKey(pair.private)
    const key = Array.isArray(parsed) ? parsed[0] : parsed
    if (key && !(key instanceof Error)) return pair
  }
  throw new Error('Could not make an SSH key (ed25519) that reads back; this is a bug in the SSH library.')
}

function publicKeyOf(privateKeyText: string): string {
  const parsed = ssh2.utils.parseKey(privateKeyText)
  const key = Array.isArray(parsed) ? parsed[0] : parsed
  if (!key || key instanceof Error) {
    throw new Error(`The emulator's SSH host key file (${HOST_KEY_FILE}) is damaged; delete it to make a new one.`)
  }
  return `${key.type} ${key.getPublicSSH().toString('base64')}`
}
