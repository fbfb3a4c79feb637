/**
 * The Sandbox profile: the emulator (src/emulator) running inside the main process on free
 * loopback ports, with its state in `<dataDir>/sandbox/state.json`. On first use it makes, in
 * `<dataDir>/sandbox/` (a 0700 folder, files 0600):
 * - a random password for the demo account (`password`): the Sandbox runs real shells as this
 *   user, so its password must not be a public one (issue #12 item 1);
 * - an ed25519 key pair for the demo account, registered with the Sandbox's SSH servers, so the
 *   terminal works with no setup.
 * Each run the emulator writes its control secret to `control-secret` there (src/emulator).
 */
import { randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SandboxAccess } from '../../shared/contract'
import { generateEd25519KeyPair, type ReachFactory } from './sandbox-emulator'
import { writeFileAtomic } from '../../shared/node/atomic-write'
import { SANDBOX_USERNAME } from './profiles'

/** What the Sandbox needs of the emulator: `startEmulator` from src/emulator/index.ts. */
export interface EmulatorStartOptions {
  port: number
  /** The control secret is written beside it, to `control-secret`. */
  statePath: string
  /** The Sandbox's one account, with its per-install password. */
  users: { username: string; password: string }[]
  /** OpenSSH public key lines per user name. */
  sshKeys: Record<string, string[]>
  reach?: ReachFactory
}

export interface EmulatorHandle {
  baseUrl: string
  /** The control plane (`/__emulator/`), which needs the secret in `controlSecretPath`. */
  controlUrl: string
  controlSecretPath?: string
  close(): Promise<void>
  /** Set when the emulator runs with reach (real SSH, notebook, ports): SHA-256 of its notebook certificate, hex. */
  notebookCertSha256?: string
  /**
   * The emulator's control, for what the Sandbox comes with (its catalog's images) and what its
   * Settings offer: an API key for its account, practice money.
   */
  control?: {
    catalog(): { images: { imageId: string; name: string }[] }
    createApiKey?(username: string): string
    balance?(username: string): { balance: number }
    setBalance?(username: string, values: { balance?: number }): void
  }
}

export type StartEmulator = (options: EmulatorStartOptions) => Promise<EmulatorHandle>

/** What the rest of main needs to know of a running Sandbox. */
export interface SandboxInfo {
  /** SHA-256 of the emulator's notebook certificate (DER), lowercase hex without colons. */
  notebookCertSha256: string
  /** Private key the app generated and registered with the Sandbox's SSH servers. */
  sshPrivateKeyPath: string
}

export interface SandboxOptions {
  dataDir: string
  start: StartEmulator
  /** What makes Sandbox instances reachable (SSH, notebook, ports): sandbox-emulator.ts sandboxReach. */
  reach?: ReachFactory
}

export interface RunningSandbox {
  baseUrl: string
  info: SandboxInfo
  /** The images the Sandbox offers, with its names for them: the create form lists them. */
  images: { imageId: string; name: string }[]
  /** How to reach it by hand (Settings shows it; the sign-in form fills in the password). */
  access: SandboxAccess
  /** A console-style API key for its account (the Sandbox has no console to make one in). */
  makeApiKey(): string
  /** Adds practice money to its account's balance. */
  addMoney(dollars: number): void
  close(): Promise<void>
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const dir = join(options.dataDir, 'sandbox')
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const key = await ensureSandboxKey(dir)
  const password = await ensureSandboxPassword(dir)
  // The reach the emulator builds carries the notebook certificate's fingerprint (createReach's
  // EmulatorReach); it is kept here for SandboxInfo, so notebook windows can pin it.
  let certSha256: string | undefined
  const reach = options.reach
  const capturingReach: ReachFactory | undefined = reach
    ? async (context) => {
        const built = await reach(context)
        const sha = (built as { notebookCertSha256?: unknown }).notebookCertSha256
        if (typeof sha === 'string') certSha256 = sha
        return built
      }
    : undefined
  const handle = await options.start({
    port: 0,
    statePath: join(dir, 'state.json'),
    users: [{ username: SANDBOX_USERNAME, password }],
    sshKeys: { [SANDBOX_USERNAME]: [key.publicKey] },
    ...(capturingReach ? { reach: capturingReach } : {})
  })
  return {
    baseUrl: handle.baseUrl,
    images: (handle.control?.catalog().images ?? []).map(({ imageId, name }) => ({ imageId, name })),
    info: { sshPrivateKeyPath: key.privateKeyPath, notebookCertSha256: certSha256 ?? handle.notebookCertSha256 ?? '' },
    access: {
      apiUrl: handle.baseUrl,
      username: SANDBOX_USERNAME,
      password,
      controlUrl: handle.controlUrl,
      ...(handle.controlSecretPath ? { controlSecretFile: handle.controlSecretPath } : {})
    },
    makeApiKey() {
      const create = handle.control?.createApiKey
      if (!create) throw new Error('this Sandbox cannot make API keys')
      return create(SANDBOX_USERNAME)
    },
    addMoney(dollars) {
      const { balance, setBalance } = handle.control ?? {}
      if (!balance || !setBalance) throw new Error('this Sandbox has no practice money to add')
      setBalance(SANDBOX_USERNAME, { balance: balance(SANDBOX_USERNAME).balance + dollars })
    },
    close: () => handle.close()
  }
}

/** A password nobody can guess, typed by nobody: the sign-in form fills it in, Settings copies it. */
function newSandboxPassword(): string {
  return randomBytes(15).toString('base64url')
}

/**
 * The Sandbox's password, made at its first start and kept (0600) with its state, so a remembered
 * session, curl scripts and the user's memory of it survive restarts.
 */
export async function ensureSandboxPassword(dir: string): Promise<string> {
  const path = join(dir, 'password')
  try {
    const kept = (await readFile(path, 'utf8')).trim()
    if (kept !== '') {
      await chmod(path, 0o600)
      return kept
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const password = newSandboxPassword()
  await writeFileAtomic(path, `${password}\n`, 0o600)
  return password
}

export interface SandboxKey {
  privateKeyPath: string
  /** OpenSSH public key line. */
  publicKey: string
}

/** Generates the Sandbox's SSH key pair once; later runs reuse it. */
export async function ensureSandboxKey(dir: string): Promise<SandboxKey> {
  const privateKeyPath = join(dir, 'id_ed25519')
  const publicKeyPath = `${privateKeyPath}.pub`
  try {
    const [publicKey] = await Promise.all([readFile(publicKeyPath, 'utf8'), readFile(privateKeyPath, 'utf8')])
    // Older files may have been created with a looser mode; ssh clients refuse those.
    await chmod(privateKeyPath, 0o600)
    return { privateKeyPath, publicKey: publicKey.trim() }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const pair = generateEd25519KeyPair('cloud-tray-sandbox')
  // Each whole or not at all: a start cut off between the two finds one missing and makes a new pair.
  await writeFileAtomic(publicKeyPath, pair.public + '\n', 0o644)
  await writeFileAtomic(privateKeyPath, pair.private, 0o600)
  return { privateKeyPath, publicKey: pair.public.trim() }
}
