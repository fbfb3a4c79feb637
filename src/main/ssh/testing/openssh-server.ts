/**
 * Debian's OpenSSH server as a test fixture: a throwaway host key, user key and
 * AuthorizedKeysFile in a temp folder, sshd run as the current user on a free loopback port
 * (`-D -e -f <config>`, UsePAM no, StrictModes no). It can be stopped, restarted on the same
 * port, frozen (SIGSTOP: the socket stays open but nothing answers) and given a new host key.
 *
 * SFTP goes through a wrapper that starts OpenSSH's sftp-server in that folder, or with the
 * fault `setSftpFault` names (a read-only server, or a full disk: emulator/reach/sftp-server.ts
 * makes both, for the emulator and here alike).
 *
 * Sessions get HOME set to an empty folder of the fixture (`SetEnv HOME=…`), so the login shell
 * reads none of the real user's rc files, and their own tmux socket folder (`TMUX_TMPDIR`), so
 * their tmux server is the fixture's, never the machine's; `dispose` ends it. `setTmuxPresent(false)`
 * puts a `tmux` that is "not found" first on the sessions' PATH (from the next start). Those belong to the machine, not the test: this VM's
 * ~/.bashrc runs `pyenv rehash`, which takes a lock file; a session the tests SIGKILL leaves that
 * lock behind, and every later shell then waits 60 s on it, so no command ever answers.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { join as shellJoin } from 'shlex'
import { endTmuxServers, MISSING_TMUX_SCRIPT } from '../../../emulator/reach/instance-tmux'
import { SFTP_FAULTS, sftpServerCommand, type SftpFault } from '../../../emulator/reach/sftp-server'

export const SSHD = '/usr/sbin/sshd'

/**
 * Why OpenSSH's server cannot serve these tests here, or undefined when it can. Linux has it
 * once openssh-server is installed; macOS ships it; Windows has no /usr/sbin/sshd (its OpenSSH
 * server is an optional feature, and the fixture stops and freezes sshd with POSIX signals).
 */
export function opensshMissing(platform: NodeJS.Platform, exists: (path: string) => boolean): string | undefined {
  if (platform === 'win32')
    return 'Windows has no OpenSSH server at /usr/sbin/sshd for the fixture, which also drives sshd with POSIX signals'
  if (!exists(SSHD) || !exists('/usr/bin/ssh-keygen'))
    return `OpenSSH (${SSHD}, ssh-keygen) is not installed; on Debian or Ubuntu: sudo apt-get install openssh-server openssh-client`
  return undefined
}

/**
 * Whether OpenSSH (sshd, ssh-keygen) is here; when not, prints why. A developer without it skips
 * those tests; CI must not where the platform has it (Linux installs it, macOS ships it): there a
 * missing sshd is an install failure, so it is reported as one.
 */
export function opensshAvailable(): boolean {
  const missing = opensshMissing(process.platform, existsSync)
  if (missing === undefined) return true
  if (process.env['CI'] && process.platform !== 'win32') {
    throw new Error(
      `OpenSSH is missing (${SSHD}): CI installs openssh-server (.ci/run, ci.yml) and macOS ships it, so these tests must run there.`
    )
  }
  console.log(`[OpenSSH tests skipped] ${missing}`)
  return false
}

export interface OpenSshServerOptions {
  /** Extra sshd_config lines (e.g. `PasswordAuthentication yes`). */
  extraConfig?: string[]
  /** The type of the server's one host key (ssh-keygen -t); ed25519 unless said. */
  hostKeyType?: 'ed25519' | 'rsa' | 'ecdsa'
}

export class OpenSshServer {
  readonly dir: string
  readonly username = userInfo().username
  port = 0
  private process: ChildProcess | undefined
  private readonly extraConfig: string[]
  private tmuxPresent = true
  readonly hostKeyType: NonNullable<OpenSshServerOptions['hostKeyType']>

  constructor(options: OpenSshServerOptions = {}) {
    this.dir = mkdtempSync(join(tmpdir(), 'cloudtray-sshd-'))
    this.extraConfig = options.extraConfig ?? []
    this.hostKeyType = options.hostKeyType ?? 'ed25519'
    keygen(this.hostKeyPath, this.hostKeyType)
    keygen(this.userKeyPath, 'ed25519')
    writeFileSync(this.authorizedKeysPath, readFileSync(`${this.userKeyPath}.pub`))
    mkdirSync(this.homePath)
    mkdirSync(this.tmuxDir, { mode: 0o700 })
  }

  /** From the next SFTP session on, the server fails as a read-only folder or a full disk would. */
  setSftpFault(fault: SftpFault): void {
    writeFileSync(join(this.dir, 'sftp-fault'), fault)
  }

  /** A shell script sshd runs for the `sftp` subsystem: the server for the fault in `sftp-fault`. */
  private writeSftpWrapper(): string {
    const path = join(this.dir, 'sftp-subsystem')
    const cases = SFTP_FAULTS.map((fault) => {
      const command = sftpServerCommand(fault, this.homePath)
      return command ? `  ${fault}) exec ${shellJoin([command.file, ...command.args])} ;;` : `  ${fault}) exit 1 ;;`
    })
    const script = [
      '#!/bin/sh',
      `cd ${shellJoin([this.homePath])} || exit 1`,
      `case "$(cat ${shellJoin([join(this.dir, 'sftp-fault')])} 2>/dev/null)" in`,
      ...cases,
      `  *) exec ${shellJoin([sftpServerCommand('none', this.homePath)?.file ?? 'false'])} ;;`,
      'esac',
      ''
    ].join('\n')
    writeFileSync(path, script, { mode: 0o755 })
    return path
  }

  /** The sessions' TMUX_TMPDIR: their tmux server's socket is under it. */
  get tmuxDir(): string {
    return join(this.dir, 'tmux')
  }

  /** From the next start on, the sessions find no tmux (`false`: "tmux: not found", exit 127), or find it again. */
  setTmuxPresent(present: boolean): void {
    this.tmuxPresent = present
    const bin = join(this.dir, 'no-tmux-bin')
    mkdirSync(bin, { recursive: true })
    writeFileSync(join(bin, 'tmux'), MISSING_TMUX_SCRIPT, { mode: 0o755 })
  }

  /** Ends the sessions' tmux server (what outlives sshd's sessions). */
  endTmux(): Promise<void> {
    return endTmuxServers(this.tmuxDir)
  }

  /** The sessions' HOME: an empty folder, so no rc file of the real user runs. */
  get homePath(): string {
    return join(this.dir, 'home')
  }

  get hostKeyPath(): string {
    return join(this.dir, `host_${this.hostKeyType}`)
  }
  get userKeyPath(): string {
    return join(this.dir, 'user_ed25519')
  }
  get authorizedKeysPath(): string {
    return join(this.dir, 'authorized_keys')
  }

  /** A further user key (optionally encrypted) that the server accepts. */
  addUserKey(name: string, passphrase = ''): string {
    const path = join(this.dir, name)
    keygen(path, 'ed25519', passphrase)
    writeFileSync(this.authorizedKeysPath, readFileSync(`${path}.pub`), { flag: 'a' })
    return path
  }

  /** The host public key as `type base64`. */
  hostPublicKey(): { keyType: string; keyBase64: string } {
    const [keyType, keyBase64] = readFileSync(`${this.hostKeyPath}.pub`, 'utf8').trim().split(/\s+/)
    return { keyType: keyType as string, keyBase64: keyBase64 as string }
  }

  /** Replaces the host key (takes effect at the next start). */
  rotateHostKey(): void {
    rmSync(this.hostKeyPath, { force: true })
    rmSync(`${this.hostKeyPath}.pub`, { force: true })
    keygen(this.hostKeyPath, this.hostKeyType)
  }

  /**
   * Starts sshd on `port`, or on a free one. A free port is only free when it was looked at: the
   * other test worker's next listen may take it before sshd binds it, and then sshd exits with
   * "Address already in use". A port picked here is picked again then; a port the test chose (a
   * restart on the same port) is not.
   */
  async start(): Promise<void> {
    const picked = this.port === 0
    for (let attempt = 1; ; attempt++) {
      if (picked) this.port = await this.pickPort()
      try {
        return await this.startOnPort()
      } catch (error) {
        if (!picked || attempt >= 3 || !/Address already in use/.test(String(error))) throw error
        await this.stop()
      }
    }
  }

  /** A port nothing listens on now (a test may play the unlucky case where that changes). */
  protected pickPort(): Promise<number> {
    return freePort()
  }

  private async startOnPort(): Promise<void> {
    // sshd insists on its privilege-separation folder even when run by root for a test.
    if (process.getuid?.() === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 })
    const config = join(this.dir, 'sshd_config')
    writeFileSync(
      config,
      [
        `Port ${this.port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${this.hostKeyPath}`,
        `AuthorizedKeysFile ${this.authorizedKeysPath}`,
        'UsePAM no',
        'StrictModes no',
        'PidFile none',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PrintMotd no',
        'PrintLastLog no',
        'LogLevel ERROR',
        'MaxStartups 50',
        `SetEnv HOME=${this.homePath} TMUX_TMPDIR=${this.tmuxDir}${
          this.tmuxPresent ? '' : ` PATH=${join(this.dir, 'no-tmux-bin')}:/usr/local/bin:/usr/bin:/bin`
        }`,
        `Subsystem sftp ${this.writeSftpWrapper()}`,
        ...this.extraConfig
      ].join('\n') + '\n'
    )
    const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] })
    this.process = child
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = (): string | undefined => (child.exitCode !== null ? `sshd exited: ${stderr}` : undefined)
    await waitForPort(this.port, exited)
    // What answers may be another test's server that took the port first (sshd then exits):
    // only OpenSSH's own greeting says this sshd has it.
    const greeting = await firstLine(this.port)
    if (!greeting.startsWith('SSH-2.0-OpenSSH')) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      throw new Error(exited() ?? `port ${this.port} answered ${JSON.stringify(greeting)}, not this sshd (Address already in use?)`)
    }
  }

  /** Kills sshd and every session process it forked. */
  async stop(): Promise<void> {
    const child = this.process
    this.process = undefined
    if (!child || child.exitCode !== null) return
    const pids = descendants(child.pid as number)
    for (const pid of pids) safeKill(pid, 'SIGKILL')
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }

  /** Stops answering without closing sockets (a hung host or a dead network path). */
  freeze(): void {
    const pid = this.process?.pid
    if (!pid) return
    for (const each of [pid, ...descendants(pid)]) safeKill(each, 'SIGSTOP')
  }

  thaw(): void {
    const pid = this.process?.pid
    if (!pid) return
    for (const each of [pid, ...descendants(pid)]) safeKill(each, 'SIGCONT')
  }

  async dispose(): Promise<void> {
    this.thaw()
    await this.stop()
    await this.endTmux()
    rmSync(this.dir, { recursive: true, force: true })
  }
}

function keygen(path: string, type: string, passphrase = ''): void {
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', passphrase, '-C', 'cloudtray-test', '-f', path], { stdio: 'ignore' })
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** Polls a connect until something listens on 127.0.0.1:`port` (sshd, `ssh -L`); bounded to about 5 s. */
export async function waitForPort(port: number, failed: () => string | undefined = () => undefined): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const problem = failed()
    if (problem) throw new Error(problem)
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`sshd did not listen on ${port}`)
}

/** The first line a server on 127.0.0.1:`port` sends, or '' when it sends none within 5 s. */
function firstLine(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    const done = (): void => {
      clearTimeout(timer)
      socket.destroy()
      resolve(text.split('\n')[0]!.trim())
    }
    const timer = setTimeout(done, 5_000)
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1')
      if (text.includes('\n') || text.length > 255) done()
    })
    socket.once('error', done)
    socket.once('close', done)
  })
}

function descendants(pid: number): number[] {
  let out: string
  try {
    out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
  } catch {
    return []
  }
  const children = new Map<number, number[]>()
  for (const line of out.trim().split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number)
    if (child === undefined || parent === undefined) continue
    children.set(parent, [...(children.get(parent) ?? []), child])
  }
  const result: number[] = []
  const queue = [...(children.get(pid) ?? [])]
  while (queue.length > 0) {
    const next = queue.shift() as number
    result.push(next)
    for (const child of children.get(next) ?? []) queue.push(child)
  }
  return result
}

function safeKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal)
  } catch {
    // Already gone.
  }
}
