import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { hostAlias, hostBlock, mergeHostBlock, writeHostBlock } from './ssh-config'

const target = { host: '127.0.0.1', port: 31022, username: 'ubuntu' }

describe('hostBlock', () => {
  it('names the host after the instance and lists what OpenSSH needs', () => {
    const { alias, block } = hostBlock({ instanceId: 'i-1', instanceName: 'My GPU box!', target, identityFile: '/home/me/.ssh/id ed25519' })
    expect(alias).toBe('cloudtray-my-gpu-box')
    expect(block).toBe(
      [
        '# >>> Cloud Tray cloudtray-my-gpu-box (instance i-1)',
        'Host cloudtray-my-gpu-box',
        '  HostName 127.0.0.1',
        '  Port 31022',
        '  User ubuntu',
        '  IdentityFile "/home/me/.ssh/id ed25519"',
        '# <<< Cloud Tray cloudtray-my-gpu-box',
        ''
      ].join('\n')
    )
  })

  it('falls back to the instance id when the name has nothing usable', () => {
    expect(hostAlias('***', 'I-42')).toBe('cloudtray-i-42')
  })
})

describe('mergeHostBlock', () => {
  const { alias, block } = hostBlock({ instanceId: 'i-1', instanceName: 'box', target })
  it('appends after a blank line, and replaces its own earlier block instead of duplicating it', () => {
    const first = mergeHostBlock('Host github.com\n  User git\n', alias, block)
    expect(first).toBe(`Host github.com\n  User git\n\n${block}`)
    const moved = hostBlock({ instanceId: 'i-1', instanceName: 'box', target: { ...target, port: 32000 } })
    const second = mergeHostBlock(first + 'Host after\n', alias, moved.block)
    expect(second).toBe(`Host github.com\n  User git\n\n${moved.block}Host after\n`)
  })
})

describe('writeHostBlock', () => {
  let home: string
  afterEach(() => rmSync(home, { recursive: true, force: true }))

  it('creates ~/.ssh/config privately when there is none, without a backup', async () => {
    home = mkdtempSync(join(tmpdir(), 'cloudtray-home-'))
    const { alias, block } = hostBlock({ instanceId: 'i-1', instanceName: 'box', target })
    const result = await writeHostBlock(home, alias, block, Date.UTC(2026, 0, 1))
    expect(result).toEqual({ path: join(home, '.ssh', 'config'), backupPath: null })
    expect(readFileSync(result.path, 'utf8')).toBe(block)
    expect(statSync(result.path).mode & 0o777).toBe(0o600)
  })

  it('keeps a backup of an existing config', async () => {
    home = mkdtempSync(join(tmpdir(), 'cloudtray-home-'))
    mkdirSync(join(home, '.ssh'))
    writeFileSync(join(home, '.ssh', 'config'), 'Host old\n')
    const { alias, block } = hostBlock({ instanceId: 'i-1', instanceName: 'box', target })
    const result = await writeHostBlock(home, alias, block, Date.UTC(2026, 0, 1, 12))
    expect(result.backupPath).toBe(join(home, '.ssh', 'config.cloudtray-backup-2026-01-01T12-00-00-000Z'))
    expect(readFileSync(result.backupPath!, 'utf8')).toBe('Host old\n')
    expect(readFileSync(result.path, 'utf8')).toBe(`Host old\n\n${block}`)
    expect(readdirSync(join(home, '.ssh')).sort()).toEqual(['config', 'config.cloudtray-backup-2026-01-01T12-00-00-000Z'])
  })
})
