import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openRotatingFile } from './rotating-file'

const dirs: string[] = []
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'log-rotate-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const line = (n: number): string => `line ${String(n).padStart(4, '0')} ${'x'.repeat(90)}` // 100 bytes + \n

describe('openRotatingFile', () => {
  it('rotates by size, keeps N files, drops the oldest, loses no recent line', () => {
    const dir = scratch()
    const file = openRotatingFile({ dir: join(dir, 'logs'), maxBytes: 1024, keep: 3 })
    for (let n = 0; n < 100; n++) file.write(line(n))
    file.close()

    const files = file.files()
    expect(files.map((f) => basename(f))).toEqual(['main.log', 'main.log.1', 'main.log.2', 'main.log.3'])
    for (const f of files) expect(statSync(f).size).toBeLessThanOrEqual(1024)
    // Newest first and contiguous: reading .3, .2, .1, current gives the last lines in order.
    const kept = [...files].reverse().flatMap((f) => readFileSync(f, 'utf8').trim().split('\n'))
    expect(kept.at(-1)).toBe(line(99))
    const numbers = kept.map((l) => Number(l.slice(5, 9)))
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i))
    expect(numbers.length).toBeGreaterThan(3 * 9)
  })

  it('appends to an existing file after a restart and counts its size', () => {
    const dir = scratch()
    const first = openRotatingFile({ dir, maxBytes: 1024, keep: 2 })
    for (let n = 0; n < 8; n++) first.write(line(n))
    first.close()
    const second = openRotatingFile({ dir, maxBytes: 1024, keep: 2 })
    second.write(line(8))
    second.write(line(9))
    second.write(line(10)) // 11 × 101 bytes would pass 1024: this one goes to a fresh file
    second.close()
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toBe(`${line(10)}\n`)
    expect(readFileSync(join(dir, 'main.log.1'), 'utf8').trim().split('\n')).toHaveLength(10)
  })

  it('creates the file readable by its owner only', () => {
    if (process.platform === 'win32') return
    const dir = scratch()
    const file = openRotatingFile({ dir })
    file.write('hello')
    file.close()
    expect(statSync(join(dir, 'main.log')).mode & 0o777).toBe(0o600)
  })

  it('ignores writes after close', () => {
    const dir = scratch()
    const file = openRotatingFile({ dir })
    file.write('before')
    file.close()
    file.write('after')
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toBe('before\n')
  })
})
