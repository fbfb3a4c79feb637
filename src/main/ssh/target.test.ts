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

  it('builds the command users paste into their own terminal', () => {
    expect(sshCommand({ host: 'ssh.example', port: 31022, username: 'ubuntu' })).toBe('ssh -p 31022 ubuntu@ssh.example')
    expect(sshCommand({ host: '::1', port: 2222, username: 'u' })).toBe('ssh -p 2222 u@[::1]')
  })

  it('only lets a running instance be reached', () => {
    const instance = runningInstance({ host: 'h', port: 1, username: 'u' })
    expect(() => requireRunning(instance)).not.toThrow()
    instance.instanceRuntimeInfo.status = 'Stopped'
    expect(() => requireRunning(instance)).toThrow(AppError)
  })
})
