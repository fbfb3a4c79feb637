import { describe, expect, it } from 'vitest'
import { checkAbsolute, checkName, checkRelative, isTemporaryName, joinRemote, nameOf, parentOf, temporaryName } from './remote-path'

describe('remote paths', () => {
  it.each([
    ['plain.txt', true],
    ['with space', true],
    [`quote's "double"`, true],
    ['new\nline', true],
    ['$(touch x)', true],
    ['-rf', true],
    ['back\\slash', true],
    ['文件 🚀', true],
    ['', false],
    ['.', false],
    ['..', false],
    ['a/b', false],
    ['nul\0', false],
    ['x'.repeat(256), false],
    ['é'.repeat(128), false]
  ])('name %j → %s', (name, ok) => expect(checkName(name).ok).toBe(ok))

  it.each([
    ['/', '/'],
    ['/home/u', '/home/u'],
    ['/home//u/', '/home/u'],
    ['/a b/new\nline', '/a b/new\nline']
  ])('absolute %j → %j', (path, expected) => expect(checkAbsolute(path)).toEqual({ ok: true, value: expected }))

  it.each(['relative', '', '/a/../etc', '/a/./b', '/nul\0'])('absolute %j is refused', (path) => expect(checkAbsolute(path).ok).toBe(false))

  it('splits relative paths into checked names', () => {
    expect(checkRelative('dir/sub dir/file "x"')).toEqual({ ok: true, value: ['dir', 'sub dir', 'file "x"'] })
    expect(checkRelative('dir/../etc').ok).toBe(false)
    expect(checkRelative('/abs').ok).toBe(false)
    expect(checkRelative('dir//x').ok).toBe(false)
  })

  it('joins, and finds parents and names', () => {
    expect(joinRemote('/', 'a', 'b')).toBe('/a/b')
    expect(joinRemote('/home/u', 'a b')).toBe('/home/u/a b')
    expect(parentOf('/home/u/a b')).toBe('/home/u')
    expect(parentOf('/a')).toBe('/')
    expect(nameOf('/home/u/a b')).toBe('a b')
  })

  it('makes hidden temporary names within NAME_MAX, and knows them again', () => {
    expect(temporaryName('data.bin', () => 'deadbeef')).toBe('.data.bin.cloudtray-deadbeef.part')
    const long = temporaryName('é'.repeat(127), () => 'deadbeef')
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255)
    expect(long.endsWith('.cloudtray-deadbeef.part')).toBe(true)
    expect(isTemporaryName(temporaryName('x'))).toBe(true)
    expect(isTemporaryName('.x.part')).toBe(false)
  })
})
