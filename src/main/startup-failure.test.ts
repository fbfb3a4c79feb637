import { describe, expect, it } from 'vitest'
import { startupFailure } from './startup-failure'

const DATA = '/home/ada/.config/cloud-tray'
const fsError = (code: string, path: string): Error => Object.assign(new Error(`${code}: something, mkdir '${path}'`), { code, path })

describe('startupFailure', () => {
  it.each([
    ['ENOTDIR', 'a file is where the folder should be'],
    ['EACCES', 'you do not have permission to write there'],
    ['EPERM', 'you do not have permission to write there'],
    ['EROFS', 'the disk is read-only'],
    ['ENOSPC', 'the disk is full']
  ])('a data folder it cannot use (%s): names the folder, the reason and what to do', (code, reason) => {
    const failure = startupFailure(fsError(code, `${DATA}/logs`), DATA)
    expect(failure.title).toBe('Cloud Tray could not start')
    expect(failure.content).toContain(DATA)
    expect(failure.content).toContain(reason)
    expect(failure.content).toMatch(/start Cloud Tray again/)
    expect(failure.content).not.toMatch(/ENOTDIR|EACCES|at \w+ \(/)
  })

  it('a file error elsewhere, or any other error: says what went wrong and where the log is', () => {
    for (const error of [fsError('EACCES', '/etc/ssh/ssh_config'), new Error('the Sandbox key could not be generated'), 'a string']) {
      const failure = startupFailure(error, DATA)
      expect(failure.content).toMatch(/Something went wrong while Cloud Tray was starting/)
      expect(failure.content).toContain(DATA)
    }
    expect(startupFailure(new Error('boom'), DATA).content).toContain('(boom)')
  })
})
