/** Names from the instance are untrusted: a download written by main never lands outside the picked folder. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { AppError } from '../../app-error'
import { DiskSink, PART, localPath } from './disk-sink'

describe('where a download lands', () => {
  it.each([
    ['a.txt', true],
    ['dir/sub dir/b.bin', true],
    ['..', false],
    ['../escape', false],
    ['dir/../../escape', false],
    ['dir//b', false],
    ['/etc/passwd', false],
    ['dir/./b', false],
    ['nul\0byte', false],
    ['back\\slash', false]
  ])('%j inside the folder: %s', (path, inside) => {
    expect(localPath('/home/me/Downloads', path) !== null).toBe(inside)
  })
})

describe('a download the disk refuses says why, in words', () => {
  it('a folder that is not there', async () => {
    const missing = join(tmpdir(), `cloudtray-no-such-folder-${process.pid}`)
    const sink = new DiskSink(
      missing,
      [{ path: 'a.txt', kind: 'file', size: 1 }],
      () => undefined,
      () => undefined
    )
    await expect(sink.prepare()).rejects.toThrow(`Cloud Tray cannot write into ${missing}: the folder does not exist. Pick another folder.`)
  })

  it('a write that fails (a folder where the part file goes)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cloudtray-sink-'))
    try {
      const failures: AppError[] = []
      const sink = new DiskSink(
        folder,
        [{ path: 'data.bin', kind: 'file', size: 4 }],
        () => undefined,
        (error) => failures.push(error)
      )
      await sink.prepare()
      mkdirSync(join(folder, `data.bin${PART}`))
      sink.write(0, 0, new Uint8Array(4))
      await vi.waitFor(() => expect(failures).toHaveLength(1), { timeout: 10_000 })
      expect(failures[0]!.message).toBe(
        `Could not write the download into ${folder}: a folder is where the file should be. Nothing half-written was kept.`
      )
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
