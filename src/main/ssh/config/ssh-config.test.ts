import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, normalize } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { hostAlias, hostBlockInPlace, planHostBlock, writeHostBlock, type HostBlockInput } from './ssh-config'
import { posixFileModesMissing, skipBecause } from '../../../shared/node/testing/platform-support'

const target = { host: '127.0.0.1', port: 31022, username: 'ubuntu' }
const box: HostBlockInput = { instanceId: 'i-1', instanceName: 'box', target }
const BLOCK = [
  '# >>> Cloud Tray cloudtray-box (instance i-1)',
  'Host cloudtray-box',
  '  HostName 127.0.0.1',
  '  Port 31022',
  '  User ubuntu',
  '# <<< Cloud Tray cloudtray-box'
]

describe('planHostBlock: the block', () => {
  it('names the host after the instance and lists what OpenSSH needs', () => {
    const plan = planHostBlock('', { instanceId: 'i-1', instanceName: 'My GPU box!', target, identityFile: '/home/me/.ssh/id ed25519' })
    expect(plan.alias).toBe('cloudtray-my-gpu-box')
    expect(plan.block).toBe(
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
    expect(plan.config).toBe(plan.block)
    expect(plan.placement).toBe('at the end of the file')
  })

  it('falls back to the instance id when the name has nothing usable', () => {
    expect(hostAlias('***', 'I-42')).toBe('cloudtray-i-42')
    expect(hostAlias('***', '***')).toBe('cloudtray-instance')
  })

  it('builds its alias and comment lines only from safe characters', () => {
    const plan = planHostBlock('', {
      instanceId: 'i-9\nHost *\n  ProxyCommand touch /tmp/x',
      instanceName: 'evil\n  ProxyCommand touch /tmp/x\u202e',
      target
    })
    expect(plan.block.split('\n').filter((line) => /^\s*(ProxyCommand|Host\s+\*)/i.test(line))).toEqual([])
    expect(plan.block.split('\n')[0]).toBe(
      '# >>> Cloud Tray cloudtray-evil-proxycommand-touch-tmp-x (instance i-9-Host-ProxyCommand-touch-tmp-x)'
    )
  })

  it('doubles % in the key path (ssh expands tokens there) and refuses one it cannot hold', () => {
    expect(planHostBlock('', { ...box, identityFile: '/keys/100%/id' }).block).toContain('  IdentityFile /keys/100%%/id\n')
    expect(() => planHostBlock('', { ...box, identityFile: '/keys/a"b' })).toThrow(/quote or control character/)
  })
})

describe('planHostBlock puts the block where OpenSSH uses it', () => {
  const cases: { name: string; existing: string; config: string; placement: RegExp }[] = [
    {
      name: 'appends after a blank line when nothing else matches the alias',
      existing: 'Host github.com\n  User git\n',
      config: ['Host github.com', '  User git', '', ...BLOCK, ''].join('\n'),
      placement: /end of the file/
    },
    {
      name: 'goes before Host * (and the comment written above it)',
      existing: 'Host github.com\n  User git\n\n# defaults\nHost *\n  User nobody\n',
      config: ['Host github.com', '  User git', '', ...BLOCK, '', '# defaults', 'Host *', '  User nobody', ''].join('\n'),
      placement: /before “Host \*”/
    },
    {
      name: 'goes before any Host pattern that matches the alias, however written',
      existing: 'host=CLOUDTRAY-* other\n  Port 1\n',
      config: [...BLOCK, '', 'host=CLOUDTRAY-* other', '  Port 1', ''].join('\n'),
      placement: /before “host=CLOUDTRAY-\* other”/
    },
    {
      name: 'is not held back by a Host that excludes the alias with !',
      existing: 'Host * !cloudtray-box\n  User nobody\n',
      config: ['Host * !cloudtray-box', '  User nobody', '', ...BLOCK, ''].join('\n'),
      placement: /end of the file/
    },
    {
      name: 'goes before a Match, whose criteria may hold',
      existing: 'Host a\n  User x\nMatch all\n  User nobody\n',
      config: ['Host a', '  User x', '', ...BLOCK, '', 'Match all', '  User nobody', ''].join('\n'),
      placement: /before “Match all”/
    },
    {
      name: 'goes above global options it would lose to, and returns the rest to every host with Host *',
      existing: 'ServerAliveInterval 30\nUser nobody\nInclude ~/.orbstack/ssh/config\n\nHost a\n  User x\n',
      config: [
        'ServerAliveInterval 30',
        '',
        ...BLOCK.slice(0, -1),
        'Host *',
        BLOCK.at(-1),
        '',
        'User nobody',
        'Include ~/.orbstack/ssh/config',
        '',
        'Host a',
        '  User x',
        ''
      ].join('\n'),
      placement: /before “User nobody”/
    },
    {
      name: 'needs no Host * when only a Host follows',
      existing: 'ServerAliveInterval 30\nHost *\n  User nobody\n',
      config: ['ServerAliveInterval 30', '', ...BLOCK, '', 'Host *', '  User nobody', ''].join('\n'),
      placement: /before “Host \*”/
    }
  ]
  it.each(cases)('$name', ({ existing, config, placement }) => {
    const plan = planHostBlock(existing, box)
    expect(plan.config).toBe(config)
    expect(plan.placement).toMatch(placement)
    // Planning again on the result changes nothing: the block stays in place.
    expect(planHostBlock(plan.config, box).config).toBe(plan.config)
  })

  it('replaces its own earlier block in place, and moves it above a Host * added since', () => {
    const first = planHostBlock('Host github.com\n  User git\n', box).config
    const moved = planHostBlock(first + 'Host after\n', { ...box, target: { ...target, port: 32000 } })
    expect(moved.config).toBe(
      ['Host github.com', '  User git', '', ...BLOCK.slice(0, 3), '  Port 32000', ...BLOCK.slice(4), '', 'Host after', ''].join('\n')
    )
    expect(moved.placement).toMatch(/in place of its earlier/)
    const shadowed = planHostBlock('Host *\n  User nobody\n\n' + first, box)
    expect(shadowed.config).toBe([...BLOCK, '', 'Host *', '  User nobody', '', 'Host github.com', '  User git', ''].join('\n'))
  })

  it('keeps every other byte of the file, CRLF and odd spacing included', () => {
    const existing = 'Host a\r\n\tUser=x   # note\r\n'
    expect(planHostBlock(existing, box).config).toBe(`${existing}\n${BLOCK.join('\n')}\n`)
  })
})

describe('writeHostBlock', () => {
  let home: string
  afterEach(() => rmSync(home, { recursive: true, force: true }))
  const now = Date.UTC(2026, 0, 1, 12)

  it('creates ~/.ssh/config privately when there is none, without a backup', async () => {
    home = mkdtempSync(join(tmpdir(), 'cloudtray-home-'))
    const { block } = planHostBlock('', box)
    const result = await writeHostBlock(home, box, block, now)
    expect(result).toEqual({ written: true, path: join(home, '.ssh', 'config'), backupPath: null })
    expect(readFileSync(join(home, '.ssh', 'config'), 'utf8')).toBe(block)
    if (!skipBecause(posixFileModesMissing(), 'the ssh config’s file mode'))
      expect(statSync(join(home, '.ssh', 'config')).mode & 0o777).toBe(0o600)
  })

  it('keeps a backup of an existing config', async () => {
    home = mkdtempSync(join(tmpdir(), 'cloudtray-home-'))
    mkdirSync(join(home, '.ssh'))
    writeFileSync(join(home, '.ssh', 'config'), 'Host old\n')
    const { block } = planHostBlock('Host old\n', box)
    const result = await writeHostBlock(home, box, block, now)
    const backupPath = join(home, '.ssh', 'config.cloudtray-backup-2026-01-01T12-00-00-000Z')
    expect(result).toEqual({ written: true, path: join(home, '.ssh', 'config'), backupPath })
    expect(readFileSync(backupPath, 'utf8')).toBe('Host old\n')
    expect(readFileSync(join(home, '.ssh', 'config'), 'utf8')).toBe(`Host old\n\n${block}`)
    expect(readdirSync(join(home, '.ssh')).sort()).toEqual(['config', 'config.cloudtray-backup-2026-01-01T12-00-00-000Z'])
  })

  it('#12 item 2: writes nothing when the block is not the one previewed', async () => {
    home = mkdtempSync(join(tmpdir(), 'cloudtray-home-'))
    const previewed = planHostBlock('', box).block
    const changed = { ...box, target: { ...target, username: 'admin' } }
    const result = await writeHostBlock(home, changed, previewed, now)
    expect(result).toEqual({ written: false, block: planHostBlock('', changed).block })
    expect(readdirSync(join(home, '.ssh'))).toEqual([])
  })

  it('#12 item 2: writes through a symlinked config (even a dangling one), keeping the link', async () => {
    home = mkdtempSync(join(tmpdir(), 'cloudtray-home-'))
    mkdirSync(join(home, '.ssh'))
    mkdirSync(join(home, 'dotfiles'))
    symlinkSync('../dotfiles/ssh_config', join(home, '.ssh', 'config'))
    const { block } = planHostBlock('', box)
    await writeHostBlock(home, box, block, now)
    expect(lstatSync(join(home, '.ssh', 'config')).isSymbolicLink()).toBe(true)
    expect(normalize(readlinkSync(join(home, '.ssh', 'config')))).toBe(normalize('../dotfiles/ssh_config'))
    expect(readFileSync(join(home, 'dotfiles', 'ssh_config'), 'utf8')).toBe(block)
  })
})

describe('hostBlockInPlace', () => {
  it('is true once the planned block was written, and false when anything in it would change', () => {
    const existing = 'Host work\n  HostName work.example\n\nHost *\n  ServerAliveInterval 30\n'
    expect(hostBlockInPlace(existing, box)).toBe(false)
    const written = planHostBlock(existing, box).config
    expect(hostBlockInPlace(written, box)).toBe(true)
    expect(hostBlockInPlace(written, { ...box, target: { ...target, port: 31023 } })).toBe(false)
    expect(hostBlockInPlace(written, { ...box, identityFile: '/k' })).toBe(false)
    expect(hostBlockInPlace('', box)).toBe(false)
  })
})
