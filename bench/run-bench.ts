import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KnownHostsStore } from '../src/main/ssh/host-keys/known-hosts-store'
import { OpenSshServer, opensshAvailable } from '../src/main/ssh/testing/openssh-server'
import type { WebShell } from '../src/web/server'

/** The number after `--name` on the command line, or `fallback`. */
export function numberArgument(name: string, fallback: number): number {
  const at = process.argv.indexOf(name)
  return at > 0 ? Number(process.argv[at + 1]) : fallback
}

/** Runs a benchmark's `main` and exits with the code it answers (1, with the error printed, if it throws). */
export function runBench(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    }
  )
}

/**
 * OpenSSH client arguments for the fixture sshd that never prompt: batch mode, no host-key
 * check, its user key, then the port and the destination. `portFlag`: ssh's -p, sftp's -P; `port`:
 * the server's own, or a proxy's in front of it.
 */
export function openSshClientArgs(server: OpenSshServer, portFlag: '-p' | '-P', port = server.port): string[] {
  const options = ['BatchMode=yes', 'StrictHostKeyChecking=no', 'UserKnownHostsFile=/dev/null', 'LogLevel=ERROR']
  return [...options.flatMap((option) => ['-o', option]), '-i', server.userKeyPath, portFlag, String(port), `${server.username}@127.0.0.1`]
}

/**
 * Runs `work` against Debian's sshd on a loopback port (the test fixture), its host key already
 * trusted in `knownHosts`, and cleans up after; answers 2 (with why) where OpenSSH is missing.
 */
export async function withTrustedSshd(
  name: string,
  work: (server: OpenSshServer, scratch: string, knownHosts: KnownHostsStore) => Promise<number>
): Promise<number> {
  if (!opensshAvailable()) {
    console.error(`${name}: needs /usr/sbin/sshd and ssh-keygen (Debian openssh-server).`)
    return 2
  }
  const server = new OpenSshServer()
  const scratch = mkdtempSync(join(tmpdir(), `cloudtray-${name}-`))
  try {
    await server.start()
    const knownHosts = new KnownHostsStore(join(scratch, 'known_hosts'), undefined)
    const { keyType, keyBase64 } = server.hostPublicKey()
    await knownHosts.remember('127.0.0.1', server.port, { keyType, keyBase64 })
    return await work(server, scratch, knownHosts)
  } finally {
    await server.dispose()
    rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * After a bench on the web shell and the Sandbox's real SSH servers: the instances' tmux servers
 * (they would outlive the bench), the shell, the browser and the bench's data folder.
 */
export async function endSandboxBench(shell: WebShell, browser: { close(): Promise<void> }, dataDir: string): Promise<void> {
  await shell
    .emulator()
    .endSessions()
    .catch(() => undefined)
  await shell.close().catch(() => undefined)
  await browser.close()
  // A shell of the Sandbox's may still be writing its home as it ends (restore-tabs met ENOTEMPTY
  // once): retry as rimraf does, rather than fail a bench that measured fine.
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
}
