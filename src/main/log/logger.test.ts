import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import { createLogger, type LogLine } from './logger'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const logDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'logger-'))
  dirs.push(dir)
  return join(dir, 'logs')
}
const lines = (path: string): LogLine[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LogLine)

describe('createLogger', () => {
  it('writes JSON lines with time, level, scope and data', () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5))
    const log = createLogger({ dir: logDir(), clock })
    log.child('watch').info('poll ok', { instances: 3 })
    log.close()
    expect(lines(log.path)).toEqual([
      { time: '2026-01-02T03:04:05.000Z', level: 'info', scope: 'watch', message: 'poll ok', data: { instances: 3 } }
    ])
  })

  it('drops lines below its level', () => {
    const log = createLogger({ dir: logDir(), level: 'warn' })
    log.debug('d')
    log.info('i')
    log.warn('w')
    log.error('e')
    log.close()
    expect(lines(log.path).map((l) => l.level)).toEqual(['warn', 'error'])
  })

  it('never writes the token, a password or a passphrase', () => {
    const log = createLogger({ dir: logDir() })
    const token = 'session-token-7f3a9c0d' // opaque, not JWT-shaped: caught because it is registered
    log.secrets.add(token)
    log.info(`request with ${token}`)
    log.warn('login failed', { body: { userName: 'demo', password: 'hunter22' } })
    log.error('ssh failed', new Error('bad passphrase: correct-horse-battery', { cause: { token } }))
    log.child('ssh').info('key loaded', { passphrase: 'correct-horse-battery' })
    log.info('cookie', { header: 'AccessToken=abc.def.ghi; Path=/' })
    log.close()
    const text = readFileSync(log.path, 'utf8')
    for (const secret of [token, 'hunter22', 'correct-horse-battery', 'abc.def.ghi']) expect(text).not.toContain(secret)
    expect(lines(log.path)).toHaveLength(5)
  })

  it('mirrors warnings and errors, redacted, when asked', () => {
    const mirrored: string[] = []
    const log = createLogger({ dir: logDir(), mirror: (l) => mirrored.push(l) })
    log.info('quiet')
    log.error('loud', { password: 'pw-12345' })
    log.close()
    expect(mirrored).toHaveLength(1)
    expect(mirrored[0]).toContain('loud')
    expect(mirrored[0]).not.toContain('pw-12345')
  })

  it('rotates through its options', () => {
    const log = createLogger({ dir: logDir(), maxBytes: 1024, keep: 2 })
    for (let n = 0; n < 50; n++) log.info(`line ${n}`, { pad: 'x'.repeat(60) })
    log.close()
    expect(log.files()).toHaveLength(3)
    expect(lines(log.files()[0]!).at(-1)?.message).toBe('line 49')
  })
})
