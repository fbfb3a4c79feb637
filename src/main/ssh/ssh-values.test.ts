import { describe, expect, it } from 'vitest'
import { shownValue, sshHost, sshPort, sshUser } from './ssh-values'

describe('sshUser', () => {
  it.each(['root', 'ubuntu', 'ec2-user', 'first.last', '_svc', 'User_01', 'a'.repeat(64)])('accepts %j', (name) => {
    expect(sshUser(name)).toEqual({ ok: true, value: name })
  })

  it.each([
    ['', /empty/],
    ['root\n  ProxyCommand touch /tmp/x', /line break/],
    ['root\r', /line break/],
    ['ro\tot', /control/],
    ['ro\u202eot', /control/],
    ['root admin', /space/],
    ['$(id)', /“\$”/],
    ['$(touch x)', /space/],
    ['`id`', /“`”/],
    ['a;b', /“;”/],
    ['a|b', /“\|”/],
    ['"root"', /“"”/],
    ["o'neil", /“'”/],
    ['root#1', /“#”/],
    ['%u', /“%”/],
    ['a@b', /“@”/],
    ['-oProxyCommand', /starts with “-”/],
    ['josé', /characters a login name cannot have/],
    ['a'.repeat(65), /longer than 64/]
  ])('refuses %j', (name, problem) => {
    const result = sshUser(name)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.problem).toMatch(problem)
  })
})

describe('sshHost', () => {
  it.each([
    ['10.0.0.5', '10.0.0.5'],
    ['ssh.region.example', 'ssh.region.example'],
    ['gpu-node_7.internal', 'gpu-node_7.internal'],
    ['localhost', 'localhost'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['2001:DB8::42', '2001:db8::42'],
    ['::ffff:10.0.0.1', '::ffff:10.0.0.1'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8']
  ])('accepts %j as %j', (host, value) => {
    expect(sshHost(host)).toEqual({ ok: true, value })
  })

  it.each([
    ['', /empty/],
    ['127.0.0.1\nHost *\n  ProxyCommand touch /tmp/x', /line break/],
    ['host name', /space/],
    ['-oProxyCommand=touch', /“=”/],
    ['h%h', /“%”/],
    ['fe80::1%eth0', /“%”/],
    ['a*', /“\*”/],
    ['a,b', /“,”/],
    ['h$(id)', /“\$”/],
    ['1:2:3:4:5:6:7:8:9', /IPv6/],
    ['1::2::3', /IPv6/],
    ['1.2.3.4::1', /IPv6/],
    ['[::1', /IPv6/],
    ['-host', /starts with “-”/],
    ['host-.example', /not a host name/],
    ['a..b', /not a host name/],
    ['x'.repeat(64), /not a host name/],
    [`${'a.'.repeat(127)}ab`, /longer than 253/]
  ])('refuses %j', (host, problem) => {
    const result = sshHost(host)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.problem).toMatch(problem)
  })
})

describe('sshPort', () => {
  it.each([1, 22, 31022, 65535])('accepts %d', (port) => expect(sshPort(port)).toEqual({ ok: true, value: port }))
  it.each([0, -22, 65536, 22.5, Number.NaN])('refuses %d', (port) => expect(sshPort(port).ok).toBe(false))
})

describe('shownValue', () => {
  it('shows line breaks and invisible characters as escapes and cuts long values', () => {
    expect(shownValue('root\n  ProxyCommand x')).toBe('root\\u{a}  ProxyCommand x')
    expect(shownValue('a\u202eb')).toBe('a\\u{202e}b')
    expect(shownValue('x'.repeat(100))).toBe(`${'x'.repeat(59)}…`)
  })
})
