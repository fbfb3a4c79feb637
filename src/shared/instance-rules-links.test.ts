import { describe, expect, it } from 'vitest'
import { linkForHostPort } from './instance-rules'

describe('linkForHostPort: one rule for every port link', () => {
  it.each([
    ['an IPv4 address', '10.0.0.5', 30888, 'http://10.0.0.5:30888'],
    ['a host name', 'node-7.gpu.example', 30888, 'http://node-7.gpu.example:30888'],
    ['#12 item 11: a bare IPv6 literal is bracketed', '::1', 30888, 'http://[::1]:30888'],
    ['#12 item 11: a bracketed IPv6 literal is bracketed once', '[::1]', 30888, 'http://[::1]:30888'],
    ['a full IPv6 literal', '2001:db8::8a2e:370:7334', 8080, 'http://[2001:db8::8a2e:370:7334]:8080'],
    ['port 80 stays visible', '10.0.0.5', 80, 'http://10.0.0.5:80'],
    ['spaces around the address', ' 10.0.0.5 ', 1, 'http://10.0.0.5:1']
  ])('%s', (_label, host, nodePort, url) => {
    expect(linkForHostPort(host, nodePort)).toBe(url)
  })

  it.each([
    ['no address', undefined, 30888],
    ['an empty address', '', 30888],
    ['a path smuggled into the host', 'evil.example/login', 30888],
    ['credentials smuggled into the host', 'user@evil.example', 30888],
    ['a second port', '10.0.0.5:22', 30888],
    ['double brackets', '[[::1]]', 30888],
    ['a zone id', 'fe80::1%eth0', 30888],
    ['whitespace inside', 'a b', 30888],
    ['a port out of range', '10.0.0.5', 70000],
    ['a port that is not whole', '10.0.0.5', 80.5]
  ])('gives no address for %s', (_label, host, nodePort) => {
    expect(linkForHostPort(host, nodePort)).toBeUndefined()
  })
})
