/** Names from the instance are untrusted: a download written by main never lands outside the picked folder. */
import { describe, expect, it } from 'vitest'
import { localPath } from './disk-sink'

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
