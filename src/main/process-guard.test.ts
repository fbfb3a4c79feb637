import { spawnSync } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { installProcessGuard, isConnectionFailure } from './process-guard'

function rig() {
  const target = new EventEmitter()
  const logged: [string, string][] = []
  const fatal: unknown[] = []
  const remove = installProcessGuard({
    target: target as unknown as NodeJS.Process,
    log: { warn: (message) => void logged.push(['warn', message]), error: (message) => void logged.push(['error', message]) },
    fatal: (error) => void fatal.push(error)
  })
  return { target, logged, fatal, remove }
}

describe('the process guard', () => {
  it('an unhandled rejection is logged and the app goes on', () => {
    const { target, logged, fatal } = rig()
    target.emit('unhandledRejection', new RangeError('Maximum call stack size exceeded'), Promise.resolve())
    expect(logged).toEqual([['warn', 'a promise failed with no one waiting for it; the app goes on']])
    expect(fatal).toEqual([])
  })

  it('a connection’s own failure outside any handler is logged and the app goes on', () => {
    const { target, logged, fatal } = rig()
    target.emit('uncaughtException', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }))
    expect(logged[0]![0]).toBe('warn')
    expect(fatal).toEqual([])
  })

  it('any other uncaught exception is not safe to go on from: logged, then the shell ends the app', () => {
    const { target, logged, fatal } = rig()
    const error = new TypeError('Cannot read properties of undefined')
    target.emit('uncaughtException', error)
    expect(logged).toEqual([['error', 'an unexpected error reached the process; the app must end']])
    expect(fatal).toEqual([error])
  })

  it('removes its handlers', () => {
    const { target, remove } = rig()
    remove()
    expect(target.listenerCount('uncaughtException')).toBe(0)
    expect(target.listenerCount('unhandledRejection')).toBe(0)
  })

  it.each([
    [{ code: 'EPIPE' }, true],
    [{ code: 'ERR_STREAM_DESTROYED' }, true],
    [{ code: 'ERR_INVALID_ARG_TYPE' }, false],
    [new Error('plain'), false],
    [null, false],
    ['a string', false]
  ])('isConnectionFailure(%j) is %s', (error, expected) => {
    expect(isConnectionFailure(error)).toBe(expected)
  })
})

describe('the process guard in a real Node process', () => {
  const child = (arg: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'testing', 'process-guard-child.ts'), arg], {
      encoding: 'utf8',
      timeout: 30_000
    })

  it('goes on past a failed promise nobody awaited and a connection error; ends at anything else', () => {
    const safe = child('safe')
    expect(safe.stdout.trim().split('\n')).toEqual([
      'warn: a promise failed with no one waiting for it; the app goes on',
      'warn: a connection failed outside any handler; the app goes on',
      'alive'
    ])
    expect(safe.status).toBe(0)
    const fatal = child('fatal')
    expect(fatal.stdout).toContain('error: an unexpected error reached the process; the app must end')
    expect(fatal.stdout).not.toContain('alive')
    expect(fatal.status).toBe(70)
  }, 60_000)
})
