/**
 * Server strings that reach ~/.ssh/config and the copied SSH command (issue #12 items 2 and 3),
 * judged by the real OpenSSH client (/usr/bin/ssh): `ssh -G` says what a config or a pasted
 * command means, and a real `ssh` run, connecting over a loopback socket to Debian's sshd,
 * shows that no injected command runs (a marker file stays absent).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Instance } from '../../shared/api'
import type { Settings } from '../../shared/contract'
import { AppError } from '../app-error'
import type { AnyCommandGroup } from './dispatcher'
import { sshCommand } from '../ssh/target'
import { runningInstance } from '../ssh/testing/instance'
import { opensshAvailable } from '../ssh/testing/openssh-server'
import { useOpenSshServer } from '../ssh/testing/use-openssh-server'
import { callHandler as call, fakeWingOptions, sshGroupOver } from './testing/ssh-group'
import type { SshWing } from '../ssh/ssh-wing'

const SSH = '/usr/bin/ssh'

/** A command's outcome: its result, or the error it was refused with. */
function settle<T>(promise: Promise<T>): Promise<T | Error> {
  return promise.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
}

interface Hostile {
  username?: string
  host?: string
}

describe.skipIf(!opensshAvailable() || !existsSync(SSH))('untrusted SSH values against the real ssh client', () => {
  const sshd = useOpenSshServer('cloudtray-untrusted-')
  let marker: string
  let counter = 0
  beforeAll(() => {
    marker = join(sshd.scratch, 'injected-command-ran')
  })
  const wings: SshWing[] = []
  afterEach(() => {
    for (const wing of wings.splice(0)) wing.dispose()
    rmSync(marker, { force: true })
  })

  /** The ssh commands over these instances, with a fresh home and the test server's key in Settings. */
  function setup(instances: Instance[]): { group: AnyCommandGroup; home: string; config: string } {
    const home = join(sshd.scratch, `home-${++counter}`)
    mkdirSync(join(home, '.ssh'), { recursive: true })
    const { options } = fakeWingOptions(join(sshd.scratch, `data-${counter}`), instances)
    ;(options.settings.get() as { sshKeyFile: Settings['sshKeyFile'] }).sshKeyFile = sshd.server.userKeyPath
    const { wing, group } = sshGroupOver(options, { homeDir: home, agent: undefined })
    wings.push(wing)
    return { group, home, config: join(home, '.ssh', 'config') }
  }

  function box(overrides: { username?: string; host?: string; name?: string; instanceId?: string } = {}): Instance {
    return runningInstance({
      instanceId: overrides.instanceId ?? 'i-box',
      name: overrides.name ?? 'box',
      host: overrides.host ?? '127.0.0.1',
      port: sshd.server.port,
      username: overrides.username ?? sshd.server.username
    })
  }

  /** An instance carrying a hostile login name or address; MARKER stands for the marker file's path. */
  function hostileBox(hostile: Hostile, extra: { name?: string; instanceId?: string } = {}): Instance {
    return box({
      ...extra,
      ...(hostile.username ? { username: hostile.username.replace('MARKER', marker) } : {}),
      ...(hostile.host ? { host: hostile.host.replace('MARKER', marker) } : {})
    })
  }

  /** What OpenSSH makes of a config for a host: `ssh -G`, as a map of lowercase options. */
  function resolved(config: string, host: string): Map<string, string> {
    const out = execFileSync(SSH, ['-G', '-F', config, host], { encoding: 'utf8' })
    return new Map(out.split('\n').map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)]))
  }

  /**
   * A real `ssh` run with this config (BatchMode, no host-key question); answers its output.
   * `extra` options come first and so win over the config's.
   */
  function runSsh(config: string, host: string, extra: string[] = []): { status: number | null; stdout: string; stderr: string } {
    const options = [
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      `UserKnownHostsFile=${join(sshd.scratch, 'known_hosts')}`,
      '-o',
      'ConnectTimeout=5'
    ]
    const result = spawnSync(SSH, [...extra, '-F', config, ...options, host, 'echo', 'connected-ok'], { encoding: 'utf8', timeout: 20_000 })
    return { status: result.status, stdout: result.stdout, stderr: result.stderr }
  }

  /**
   * Pastes a copied command into `sh -c`, with `ssh` on PATH standing for a shim: one that hands
   * its arguments to the real client (`ssh -G`: what it would connect to; or a real
   * connection), or one that prints the arguments the shell gave it, NUL-separated.
   */
  function paste(command: string, mode: 'parse' | 'connect' | 'argv'): string {
    const bin = join(sshd.scratch, `bin-${mode}`)
    if (!existsSync(bin)) {
      mkdirSync(bin)
      const shim = {
        parse: `exec ${SSH} -G -F /dev/null "$@"`,
        connect: `exec ${SSH} -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -i ${sshd.server.userKeyPath} "$@" echo connected-ok`,
        argv: `printf '%s\\0' "$@"`
      }[mode]
      writeFileSync(join(bin, 'ssh'), `#!/bin/sh\n${shim}\n`)
      chmodSync(join(bin, 'ssh'), 0o755)
    }
    const result = spawnSync('/bin/sh', ['-c', command], {
      encoding: 'utf8',
      cwd: sshd.scratch,
      env: { PATH: `${bin}:/usr/bin:/bin` },
      timeout: 20_000
    })
    return result.stdout
  }

  function parsed(output: string): Map<string, string> {
    return new Map(output.split('\n').map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)]))
  }

  describe('#12 item 2: ~/.ssh/config', () => {
    it.each<[string, Hostile, RegExp]>([
      [
        'an instanceUsername with a newline and ProxyCommand',
        { username: 'root\n  ProxyCommand touch MARKER' },
        /login name “root\\u\{a\} {2}ProxyCommand/
      ],
      [
        'a nodePorts address with a newline and a Host * block',
        { host: '127.0.0.1\nHost *\n  ProxyCommand touch MARKER' },
        /address “127\.0\.0\.1\\u\{a\}Host \*/
      ]
    ])('#12 item 2: refuses %s; nothing is written and ssh runs no command', async (_what, hostile, message) => {
      const instance = hostileBox(hostile, { name: 'evil\nHost *', instanceId: 'i-evil\n  ProxyCommand touch x' })
      const { group, config } = setup([instance])
      const original = 'Host github.com\n  User git\n'
      writeFileSync(config, original)

      const preview = await settle(
        call<{ block: string }>(group, 'ssh.configPreview', { instanceId: instance.instanceMetadata.instanceId })
      )
      const block = preview instanceof Error ? 'anything' : preview.block
      const write = await settle(call(group, 'ssh.configWrite', { instanceId: instance.instanceMetadata.instanceId, block }))

      // Whatever was (or was not) written, OpenSSH with that config runs nothing for the alias or
      // any other host. (HostName is pinned to loopback so no name is looked up; a ProxyCommand
      // from the config would still run.)
      for (const host of ['cloudtray-evil-host', 'unrelated.example']) {
        expect(resolved(config, host).get('proxycommand')).toBeUndefined()
        runSsh(config, host, ['-o', 'HostName=127.0.0.1', '-o', `Port=${sshd.server.port}`])
      }
      expect(existsSync(marker)).toBe(false)
      expect(readFileSync(config, 'utf8')).toBe(original)
      expect(preview).toBeInstanceOf(AppError)
      expect((preview as AppError).message).toMatch(message)
      expect((preview as AppError).message).toMatch(/Ask your cloud provider/)
      expect(write).toBeInstanceOf(AppError)
    })

    it('#12 item 2: lands before Host * and global options, and ssh -G and a real connection use the instance’s values', async () => {
      const { group, config } = setup([box()])
      const original =
        'ServerAliveInterval 30\nUser nobody\n\nHost github.com\n  User git\n\n# Defaults for everything\nHost *\n  User nobody\n  Port 1\n'
      writeFileSync(config, original)

      const preview = await call<{ block: string; placement: string }>(group, 'ssh.configPreview', { instanceId: 'i-box' })
      expect(preview.placement).toMatch(/before “User nobody”/)
      await call(group, 'ssh.configWrite', { instanceId: 'i-box', block: preview.block })
      expect(readFileSync(config, 'utf8')).toContain(preview.block)

      const settings = resolved(config, 'cloudtray-box')
      expect([settings.get('user'), settings.get('hostname'), settings.get('port')]).toEqual([
        sshd.server.username,
        '127.0.0.1',
        String(sshd.server.port)
      ])
      expect(settings.get('identityfile')).toBe(sshd.server.userKeyPath)
      // Every other host still gets the file's own settings.
      const other = resolved(config, 'elsewhere.example')
      expect([other.get('user'), other.get('port'), other.get('serveraliveinterval')]).toEqual(['nobody', '1', '30'])
      const github = resolved(config, 'github.com')
      expect(github.get('user')).toBe('nobody') // the global User came first, as before

      const run = runSsh(config, 'cloudtray-box')
      expect(run.stderr).not.toMatch(/Permission denied|Connection refused/)
      expect(run.stdout.trim()).toBe('connected-ok')
      expect(existsSync(marker)).toBe(false)
    })

    it('#12 item 2: writes through a symlinked ~/.ssh/config to its target, keeping the link and a backup', async () => {
      const { group, home, config } = setup([box()])
      mkdirSync(join(home, 'dotfiles'))
      const original = 'Host *\n  User nobody\n'
      writeFileSync(join(home, 'dotfiles', 'ssh_config'), original)
      symlinkSync('../dotfiles/ssh_config', config)

      const preview = await call<{ block: string }>(group, 'ssh.configPreview', { instanceId: 'i-box' })
      const written = await call<{ path: string; backupPath: string | null }>(group, 'ssh.configWrite', {
        instanceId: 'i-box',
        block: preview.block
      })

      expect(lstatSync(config).isSymbolicLink()).toBe(true)
      expect(readlinkSync(config)).toBe('../dotfiles/ssh_config')
      expect(readFileSync(join(home, 'dotfiles', 'ssh_config'), 'utf8')).toBe(`${preview.block}\n${original}`)
      expect(written.backupPath).not.toBeNull()
      expect(readFileSync(written.backupPath!, 'utf8')).toBe(original)
      expect(resolved(config, 'cloudtray-box').get('user')).toBe(sshd.server.username)
    })

    it('#12 item 2: writes nothing when the block from the latest poll differs from the one previewed', async () => {
      const instance = box({ username: 'ubuntu' })
      const { group, home, config } = setup([instance])
      const preview = await call<{ block: string }>(group, 'ssh.configPreview', { instanceId: 'i-box' })
      expect(preview.block).toContain('  User ubuntu\n')

      // A newer poll says something else before the user presses Write.
      instance.instanceMetadata.instanceUsername = 'admin'
      const stale = await settle(call(group, 'ssh.configWrite', { instanceId: 'i-box', block: preview.block }))
      expect(stale).toBeInstanceOf(AppError)
      expect((stale as AppError).message).toMatch(/changed since you reviewed it.*Nothing was written.*Review the new block/)
      expect((stale as AppError).field).toBe('block')
      expect(existsSync(config)).toBe(false)
      expect(readdirSync(join(home, '.ssh'))).toEqual([])

      // Reviewed again, the new block is written, exactly as shown.
      const again = await call<{ block: string }>(group, 'ssh.configPreview', { instanceId: 'i-box' })
      await call(group, 'ssh.configWrite', { instanceId: 'i-box', block: again.block })
      expect(readFileSync(config, 'utf8')).toBe(again.block)
      expect(resolved(config, 'cloudtray-box').get('user')).toBe('admin')
    })
  })

  describe('#12 item 3: the copied SSH command', () => {
    it.each<[string, Hostile]>([
      ['a username $(…)', { username: '$(touch MARKER)' }],
      ['a username in backquotes', { username: '`touch MARKER`' }],
      ['a username with ;', { username: 'root;touch MARKER;x' }],
      ['an address with ;', { host: '127.0.0.1;touch MARKER' }],
      ['an address with a newline', { host: '127.0.0.1\ntouch MARKER' }]
    ])('#12 item 3: refuses %s, and nothing runs when pasted', async (_what, hostile) => {
      const { group } = setup([hostileBox(hostile)])
      const outcome = await settle(call<{ command: string }>(group, 'ssh.command', { instanceId: 'i-box' }))
      if (!(outcome instanceof Error)) paste(outcome.command, 'parse')
      expect(existsSync(marker)).toBe(false)
      expect(outcome).toBeInstanceOf(AppError)
      expect((outcome as AppError).message).toMatch(/^The cloud gave “box” the SSH (login name|address) “.*”, which contains/)
    })

    it.each([
      ['ubuntu', '10.0.0.5', 31022, '10.0.0.5'],
      ['first.last', 'ssh.region.example', 22, 'ssh.region.example'],
      ['root', '::1', 2222, '::1'],
      ['root', '[2001:db8::7]', 2200, '2001:db8::7']
    ])('the copied command for %s@%s:%d, pasted into sh, parses to that user, host and port', async (username, host, port, hostname) => {
      const instance = runningInstance({ instanceId: 'i-ok', host, port, username })
      const { group } = setup([instance])
      const { command } = await call<{ command: string }>(group, 'ssh.command', { instanceId: 'i-ok' })
      const settings = parsed(paste(command, 'parse'))
      expect([settings.get('user'), settings.get('hostname'), settings.get('port')]).toEqual([username, hostname, String(port)])
    })

    it('the copied command pasted into sh connects to the instance over a real socket', async () => {
      const { group } = setup([box()])
      const { command } = await call<{ command: string }>(group, 'ssh.command', { instanceId: 'i-box' })
      expect(command).toBe(`ssh -p ${sshd.server.port} ${sshd.server.username}@127.0.0.1`)
      expect(paste(command, 'connect').trim()).toBe('connected-ok')
    })

    it('#12 item 3: quoting alone keeps a hostile value one inert argument', () => {
      const destination = `$(touch ${marker})\`touch ${marker}\`'"@h;touch ${marker}\n|touch ${marker}`
      const command = sshCommand({
        username: destination.slice(0, destination.indexOf('@')),
        host: destination.slice(destination.indexOf('@') + 1),
        port: 22
      })
      expect(paste(command, 'argv').split('\0')).toEqual(['-p', '22', destination, ''])
      expect(existsSync(marker)).toBe(false)
    })
  })
})
