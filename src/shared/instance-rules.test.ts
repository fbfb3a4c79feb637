import { describe, expect, it } from 'vitest'
import type { NodePort } from './api'
import {
  canOpenNotebook,
  canOpenPorts,
  canOpenTerminal,
  canStop,
  canTerminate,
  forwardedPorts,
  hostForUrl,
  notebookLocation,
  portUrl,
  portUrlOf,
  sshEndpoint,
  sshEnded,
  statusGroup,
  type StatusGroup
} from './instance-rules'
import { makeInstance } from './testing/instance'

type Row = [
  status: string,
  group: StatusGroup,
  stop: boolean,
  terminate: boolean,
  notebook: boolean,
  terminal: boolean,
  ports: boolean,
  sshEnds: boolean
]

// Every status the app can meet — the spec's ten, `Stopping` (real, not in the spec) and one it
// does not know — against every action. Main's commands, the tray and the window all follow this.
const TABLE: Row[] = [
  ['Running', 'usable', true, true, true, true, true, false],
  ['Initializing', 'transitioning', true, true, false, false, false, false],
  ['PullingImage', 'transitioning', true, true, false, false, false, false],
  ['Starting', 'transitioning', true, true, false, false, false, false],
  ['Restarting', 'transitioning', true, true, false, false, false, false],
  ['Stopping', 'transitioning', false, true, false, false, false, true],
  ['StartingFailed', 'failed', true, true, false, false, false, true],
  ['InitializationFailed', 'failed', true, true, false, false, false, true],
  ['Stopped', 'ended', false, true, false, false, false, true],
  ['Archived', 'ended', false, true, false, false, false, true],
  ['Released', 'ended', false, false, false, false, false, true],
  ['Hibernating', 'unknown', true, true, false, false, false, false]
]

describe('instance rules', () => {
  it.each(TABLE)(
    '%s: class %s, stop %s, delete %s, notebook %s, terminal %s, ports %s, SSH ends %s',
    (status, group, stop, terminate, notebook, terminal, ports, sshEnds) => {
      const instance = makeInstance({ status })
      expect({
        group: statusGroup(status),
        stop: canStop(instance),
        terminate: canTerminate(instance),
        notebook: canOpenNotebook(instance),
        terminal: canOpenTerminal(instance),
        ports: canOpenPorts(instance),
        sshEnds: sshEnded(instance)
      }).toEqual({ group, stop, terminate, notebook, terminal, ports, sshEnds })
    }
  )

  it('ends SSH connections to an instance gone from the list', () => {
    expect(sshEnded(undefined)).toBe(true)
  })

  it('reads a status without regard to case, as the provider’s own client does', () => {
    expect(statusGroup('running')).toBe('usable')
    expect(canStop(makeInstance({ status: 'STOPPING' }))).toBe(false)
    expect(canOpenTerminal(makeInstance({ status: 'running' }))).toBe(true)
  })
})

describe('SSH endpoint', () => {
  const withPorts = (nodePorts: NodePort[], sshAddress = 'ssh.region.example') =>
    makeInstance({ sshAddress, nodePorts, username: 'ubuntu' })

  it('takes the port-22 entry’s address and node port, and the instance user', () => {
    const instance = withPorts([
      { port: 8888, address: '10.9.9.9', nodePort: 30888 },
      { port: 22, address: '10.0.0.5', nodePort: 31022 }
    ])
    expect(sshEndpoint(instance)).toEqual({ ok: true, host: '10.0.0.5', port: 31022, username: 'ubuntu' })
  })

  it.each<[string, NodePort]>([
    ['no address', { port: 22, nodePort: 31022 }],
    ['an empty address', { port: 22, address: '', nodePort: 31022 }],
    ['a blank address', { port: 22, address: '  ', nodePort: 31022 }]
  ])('falls back to the region’s sshAddress for %s', (_name, entry) => {
    expect(sshEndpoint(withPorts([entry]))).toMatchObject({ ok: true, host: 'ssh.region.example' })
  })

  it('says why there is none', () => {
    expect(sshEndpoint(withPorts([{ port: 8888, nodePort: 30888 }]))).toEqual({ ok: false, reason: 'no-ssh-port' })
    expect(sshEndpoint(withPorts([{ port: 22, nodePort: 31022 }], ''))).toEqual({ ok: false, reason: 'no-address' })
    // Before Running the API may list the SSH entry with node port 0.
    expect(sshEndpoint(withPorts([{ port: 22, address: '10.0.0.5', nodePort: 0 }]))).toEqual({ ok: false, reason: 'no-address' })
    expect(canOpenTerminal(withPorts([{ port: 22, nodePort: 31022 }], ''))).toBe(false)
  })

  it('keeps an IPv6 host bare, for the connection; brackets are for URLs and user@host', () => {
    expect(sshEndpoint(withPorts([{ port: 22, address: '[2001:db8::7]', nodePort: 31022 }]))).toMatchObject({ host: '2001:db8::7' })
    expect(hostForUrl('2001:db8::7')).toBe('[2001:db8::7]')
    expect(hostForUrl('[2001:db8::7]')).toBe('[2001:db8::7]')
    expect(hostForUrl('ssh.example')).toBe('ssh.example')
  })
})

describe('forwarded ports', () => {
  const instance = makeInstance({
    sshAddress: 'fd00::9',
    nodePorts: [
      { port: 22, address: '10.0.0.5', nodePort: 31022 },
      { port: 8888, address: '10.0.0.5', nodePort: 30888 },
      { port: 6006, nodePort: 30606 },
      { port: 7000, address: '[fd00::1]', nodePort: 30700 },
      { port: 7001, address: 'fd00::2', nodePort: 30701 },
      { port: 7002, address: 'evil.example/path', nodePort: 30702 },
      { port: 7003, address: 'user@evil.example', nodePort: 30703 },
      { port: 7004, address: '10.0.0.5', nodePort: 0 }
    ]
  })
  const urls = Object.fromEntries(forwardedPorts(instance).map((entry) => [entry.port, portUrl(instance, entry)]))

  it('lists every port but SSH', () => {
    expect(forwardedPorts(instance).map((entry) => entry.port)).toEqual([8888, 6006, 7000, 7001, 7002, 7003, 7004])
  })

  it('is http://address:nodePort, the region’s address standing in, IPv6 in brackets exactly once', () => {
    expect(urls).toMatchObject({
      8888: 'http://10.0.0.5:30888',
      6006: 'http://[fd00::9]:30606',
      7000: 'http://[fd00::1]:30700',
      7001: 'http://[fd00::2]:30701'
    })
    expect(portUrlOf(instance, 30888)).toBe('http://10.0.0.5:30888')
    expect(portUrlOf(instance, 31022)).toBeUndefined()
  })

  it('has no URL for an address that would change the link’s meaning, or without a port', () => {
    expect([urls[7002], urls[7003], urls[7004]]).toEqual([undefined, undefined, undefined])
  })

  it('has no URL without any address, however the address is missing', () => {
    for (const address of [undefined, '', ' ']) {
      const bare = makeInstance({
        sshAddress: '',
        nodePorts: [{ port: 8888, ...(address === undefined ? {} : { address }), nodePort: 30888 }]
      })
      expect(portUrl(bare, bare.instanceSpecInfo.nodePorts[0]!)).toBeUndefined()
    }
  })
})

describe('notebook location', () => {
  it('is https:// + domain + subUrl while Running', () => {
    expect(notebookLocation(makeInstance({ domain: 'nb.example', subUrl: '/notebook/1/lab' }))).toEqual({
      ok: true,
      url: 'https://nb.example/notebook/1/lab',
      origin: 'https://nb.example'
    })
  })

  it('has none before Running, or without a usable address', () => {
    expect(notebookLocation(makeInstance({ status: 'Starting' }))).toEqual({ ok: false, reason: 'not-running' })
    expect(notebookLocation(makeInstance({ subUrl: '' }))).toEqual({ ok: false, reason: 'bad-address' })
    expect(notebookLocation(makeInstance({ domain: 'evil.example/x' }))).toEqual({ ok: false, reason: 'bad-address' })
    expect(canOpenNotebook(makeInstance({ subUrl: '' }))).toBe(false)
  })
})
