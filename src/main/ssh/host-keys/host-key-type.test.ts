/**
 * A server whose host key is of another type than the one remembered (issue #12 item 5),
 * against Debian's sshd offering only an RSA host key. OpenSSH calls that a changed key, not a
 * first contact; the real client is run on the same known_hosts to show the app judges alike.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { opensshAvailable } from '../testing/openssh-server'
import { useOpenSshServer } from '../testing/use-openssh-server'
import { opensshTerminals } from '../testing/openssh-terminals'

const SSH = '/usr/bin/ssh'

describe.skipIf(!opensshAvailable() || !existsSync(SSH))('a host key of another type than remembered', () => {
  const sshd = useOpenSshServer('cloudtray-keytype-', { hostKeyType: 'rsa' })
  let otherEd25519: string
  beforeAll(async () => {
    const other = join(sshd.scratch, 'other_ed25519')
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other])
    otherEd25519 = readFileSync(`${other}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ')
  })
  const openTerminals = opensshTerminals(sshd)
  /** Terminals whose user would press the focused default, "Accept and remember", on any host-key question. */
  function setup(name: string) {
    const opened = openTerminals({ home: name })
    mkdirSync(join(opened.home, '.ssh'), { recursive: true })
    return opened
  }

  /** What the real client says with this known_hosts file and strict checking. */
  function openssh(knownHosts: string): { status: number | null; stderr: string; stdout: string } {
    const result = spawnSync(
      SSH,
      [
        '-F',
        '/dev/null',
        '-o',
        'BatchMode=yes',
        '-o',
        'StrictHostKeyChecking=yes',
        '-o',
        `UserKnownHostsFile=${knownHosts}`,
        '-o',
        'GlobalKnownHostsFile=/dev/null',
        '-o',
        'IdentitiesOnly=yes',
        '-i',
        sshd.server.userKeyPath,
        '-p',
        String(sshd.server.port),
        `${sshd.server.username}@127.0.0.1`,
        'echo',
        'connected-ok'
      ],
      { encoding: 'utf8', timeout: 20_000 }
    )
    return { status: result.status, stderr: result.stderr, stdout: result.stdout }
  }

  function fingerprintOf(publicKey: string): string {
    const file = join(sshd.scratch, `fp-${Math.random().toString(36).slice(2)}.pub`)
    writeFileSync(file, `${publicKey}\n`)
    return execFileSync('ssh-keygen', ['-lf', file], { encoding: 'utf8' }).split(' ')[1] as string
  }

  it('#12 item 5: an RSA key where an Ed25519 key is remembered is refused as changed, with the loud warning, not asked as a first contact', async () => {
    const { harness, terminals, links, appFile } = setup('changed-type')
    writeFileSync(appFile, `[127.0.0.1]:${sshd.server.port} ${otherEd25519}\n`)
    const rsa = readFileSync(`${sshd.server.hostKeyPath}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ')

    // OpenSSH itself, on the same file: "REMOTE HOST IDENTIFICATION HAS CHANGED".
    const real = openssh(appFile)
    expect(real.stderr).toMatch(/REMOTE HOST IDENTIFICATION HAS CHANGED/)
    expect(real.stdout).not.toContain('connected-ok')

    const { terminalId } = terminals.open('i-1', 80, 24, harness.clientId)
    const settled = (): string | undefined => harness.lastStatus(terminalId)?.state
    await harness.waitFor(() => settled() === 'failed' || settled() === 'connected', 'the connection to fail or connect')
    expect(harness.prompts.some((prompt) => prompt.kind === 'host-key')).toBe(false)
    expect(settled()).toBe('failed')
    expect(harness.prompts.find((prompt) => prompt.kind === 'host-key-changed')).toMatchObject({
      kind: 'host-key-changed',
      host: '127.0.0.1',
      port: sshd.server.port,
      keyType: 'ssh-rsa',
      oldKeyType: 'ssh-ed25519',
      oldFingerprint: fingerprintOf(otherEd25519),
      newFingerprint: fingerprintOf(rsa),
      knownHostsFile: appFile
    })
    expect(harness.lastStatus(terminalId)).toMatchObject({ needsUser: true })
    expect(harness.lastStatus(terminalId)?.message).toMatch(
      /^WARNING: the host key of 127\.0\.0\.1:\d+ has changed \(was ssh-ed25519 key SHA256:.*, now ssh-rsa key SHA256:/
    )
    // Nothing was remembered behind the user's back.
    expect(readFileSync(appFile, 'utf8')).toBe(`[127.0.0.1]:${sshd.server.port} ${otherEd25519}\n`)

    // The explicit way out: forget the old key, then it is a first contact.
    await links.forgetHostKey('127.0.0.1', sshd.server.port)
    terminals.reconnect(terminalId, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    expect(harness.prompts.filter((prompt) => prompt.kind === 'host-key')).toMatchObject([{ keyType: 'ssh-rsa' }])
  })

  it('accepts the host when one of its several remembered key types matches, as OpenSSH does', async () => {
    const { harness, terminals, userFile } = setup('several-types')
    const rsa = readFileSync(`${sshd.server.hostKeyPath}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ')
    writeFileSync(userFile, `[127.0.0.1]:${sshd.server.port} ${otherEd25519}\n[127.0.0.1]:${sshd.server.port} ${rsa}\n`)
    expect(openssh(userFile).stdout.trim()).toBe('connected-ok')

    const { terminalId } = terminals.open('i-2', 80, 24, harness.clientId)
    await harness.waitForState(terminalId, 'connected')
    expect(harness.prompts).toEqual([])
  })
})
