import { describe, expect, it } from 'vitest'
import { AppError } from '../app-error'
import { requireRunning, sshCommand, sshTarget } from './target'
import { runningInstance } from './testing/instance'

describe('sshTarget', () => {
  it('takes the address and node port of the port-22 entry and the instance user', () => {
    const instance = runningInstance({ host: '10.0.0.5', port: 31022, username: 'ubuntu' })
    instance.instanceSpecInfo.nodePorts.unshift({ port: 8888, address: '10.9.9.9', nodePort: 30888 })
    expect(sshTarget(instance)).toEqual({ host: '10.0.0.5', port: 31022, username: 'ubuntu' })
  })

  it('falls back to the region sshAddress when the entry has no address', () => {
    const instance = runningInstance({ host: 'ssh.region.example', port: 31022, username: 'root' })
    instance.instanceSpecInfo.nodePorts = [{ port: 22, nodePort: 31022 }]
    expect(sshTarget(instance).host).toBe('ssh.region.example')
  })

  it('explains a missing SSH port', () => {
    const instance = runningInstance({ host: 'h', port: 1, username: 'u', name: 'gpu-box' })
    instance.instanceSpecInfo.nodePorts = [{ port: 8888, nodePort: 30888 }]
    expect(() => sshTarget(instance)).toThrow(/“gpu-box” has no SSH port/)
  })

  it('builds the command users paste into their own terminal, plain words left bare', () => {
    expect(sshCommand({ host: 'ssh.example', port: 31022, username: 'ubuntu' })).toBe('ssh -p 31022 ubuntu@ssh.example')
    // OpenSSH takes `u@::1`; `u@[::1]` would make it look up "[::1]" as a name.
    expect(sshCommand({ host: '::1', port: 2222, username: 'u' })).toBe('ssh -p 2222 u@::1')
    expect(sshCommand({ host: 'h', port: 22, username: "$(id)'x" })).toBe(`ssh -p 22 '$(id)'"'"'x@h'`)
  })

  it('hands back a bracketed IPv6 address bare, and refuses values SSH cannot use safely, naming them', () => {
    const bracketed = runningInstance({ host: '[2001:db8::1]', port: 31022, username: 'ubuntu' })
    expect(sshTarget(bracketed).host).toBe('2001:db8::1')
    const hostile = runningInstance({ host: 'h', port: 31022, username: 'root\n  ProxyCommand x', name: 'gpu-box' })
    expect(() => sshTarget(hostile)).toThrow(
      /^The cloud gave “gpu-box” the SSH login name “root\\u\{a\} {2}ProxyCommand x”, which contains a line break\./
    )
    const badPort = runningInstance({ host: 'h', port: 70_000, username: 'u' })
    expect(() => sshTarget(badPort)).toThrow(/SSH port “70000”, which is not a port number/)
  })

  it('only lets a running instance be reached', () => {
    const instance = runningInstance({ host: 'h', port: 1, username: 'u' })
    expect(() => requireRunning(instance)).not.toThrow()
    instance.instanceRuntimeInfo.status = 'Stopped'
    expect(() => requireRunning(instance)).toThrow(AppError)
  })
})
