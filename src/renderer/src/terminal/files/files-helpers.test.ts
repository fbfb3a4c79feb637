import { describe, expect, it } from 'vitest'
import type { RemoteEntry } from '../../../../shared/contract-files'
import { conflicts, fromDropped, fromPicked, type DroppedEntry } from './collect'
import { transferLabel } from './transfer-label'
import { breadcrumbs, nameProblem, parentPath, sortEntries, uniqueName, visibleName } from './entries'

const entry = (name: string, type: RemoteEntry['type'], target?: 'file' | 'folder'): RemoteEntry => ({
  name,
  type,
  ...(target ? { target } : {}),
  size: 1,
  modifiedAt: 0,
  permissions: 'rw-r--r--'
})

describe('listing', () => {
  it('puts folders (and links to folders) first, numbers by value', () => {
    const sorted = sortEntries([
      entry('b10', 'file'),
      entry('b2', 'file'),
      entry('Zeta', 'folder'),
      entry('alpha', 'folder'),
      entry('ln', 'link', 'folder'),
      entry('A', 'file')
    ])
    expect(sorted.map((e) => e.name)).toEqual(['alpha', 'ln', 'Zeta', 'A', 'b2', 'b10'])
  })

  it('splits paths into clickable parts and finds parents', () => {
    expect(breadcrumbs('/home/u/a b')).toEqual([
      { name: '/', path: '/' },
      { name: 'home', path: '/home' },
      { name: 'u', path: '/home/u' },
      { name: 'a b', path: '/home/u/a b' }
    ])
    expect(breadcrumbs('/')).toEqual([{ name: '/', path: '/' }])
    expect(parentPath('/home/u')).toBe('/home')
    expect(parentPath('/home')).toBe('/')
  })

  it('shows control characters, keeps everything else', () => {
    expect(visibleName('new\nline\tx\u0001.txt')).toBe('new↵line⇥x�.txt')
    expect(visibleName(`$(touch x) "q" 文件`)).toBe(`$(touch x) "q" 文件`)
  })

  it('finds a free name next to a taken one', () => {
    expect(uniqueName('data.csv', new Set())).toBe('data.csv')
    expect(uniqueName('data.csv', new Set(['data.csv', 'data (2).csv']))).toBe('data (3).csv')
    expect(uniqueName('folder', new Set(['folder']))).toBe('folder (2)')
    expect(uniqueName('.bashrc', new Set(['.bashrc']))).toBe('.bashrc (2)')
  })

  it.each([
    ['', 'Enter a name.'],
    ['..', 'That name stands for a folder that already exists.'],
    ['a/b', 'A name cannot contain “/”.'],
    ['x'.repeat(256), 'That name is too long (255 bytes at most).'],
    ['new "folder"', null]
  ])('name %j → %j', (name, problem) => expect(nameProblem(name)).toBe(problem))
})

describe('collecting an upload', () => {
  it('takes a folder pick with its structure, folders before files', () => {
    const picked = [
      { name: 'a.txt', size: 3, webkitRelativePath: 'proj/src/a.txt' },
      { name: 'b.txt', size: 4, webkitRelativePath: 'proj/b.txt' }
    ]
    const { items, files } = fromPicked(picked)
    expect(items).toEqual([
      { path: 'proj', kind: 'folder', size: 0 },
      { path: 'proj/src', kind: 'folder', size: 0 },
      { path: 'proj/src/a.txt', kind: 'file', size: 3 },
      { path: 'proj/b.txt', kind: 'file', size: 4 }
    ])
    expect(files).toEqual([undefined, undefined, picked[0], picked[1]])
    expect(fromPicked([{ name: 'x', size: 1 }]).items).toEqual([{ path: 'x', kind: 'file', size: 1 }])
  })

  it('walks dropped folders, empty ones included, reading entries in batches', async () => {
    const file = (name: string, size: number): DroppedEntry => ({
      name,
      isFile: true,
      isDirectory: false,
      file: (ok) => ok(new File([new Uint8Array(size)], name))
    })
    const folder = (name: string, batches: DroppedEntry[][]): DroppedEntry => ({
      name,
      isFile: false,
      isDirectory: true,
      createReader: () => {
        const left = [...batches, []]
        return { readEntries: (ok) => ok(left.shift() ?? []) }
      }
    })
    const { items } = await fromDropped([folder('top', [[file('1', 1)], [folder('empty', [])]]), file('loose', 2)])
    expect(items).toEqual([
      { path: 'top', kind: 'folder', size: 0 },
      { path: 'top/empty', kind: 'folder', size: 0 },
      { path: 'top/1', kind: 'file', size: 1 },
      { path: 'loose', kind: 'file', size: 2 }
    ])
  })

  it('names the top-level items that already exist', () => {
    const { items } = fromPicked([
      { name: 'a', size: 1, webkitRelativePath: 'proj/a' },
      { name: 'notes.txt', size: 1 }
    ])
    expect(conflicts(items, new Set(['proj', 'other']))).toEqual(['proj'])
  })
})

describe('a transfer’s name follows its state (#24)', () => {
  it.each([
    ['upload', 'running', undefined, 'Uploading notes.txt (4 KB)'],
    ['upload', 'done', undefined, 'Uploaded notes.txt (4 KB)'],
    ['upload', 'failed', undefined, 'Upload of notes.txt (4 KB) failed'],
    ['download', 'starting', 'Downloads', 'Downloading notes.txt (4 KB) to Downloads'],
    ['download', 'done', 'Downloads', 'Downloaded notes.txt (4 KB) to Downloads'],
    ['download', 'done', undefined, 'Downloaded notes.txt (4 KB)'],
    ['download', 'cancelled', 'Downloads', 'Download of notes.txt (4 KB) cancelled']
  ] as const)('%s, %s, into %s', (direction, phase, folder, label) => {
    expect(transferLabel(direction, 'notes.txt (4 KB)', phase, folder)).toBe(label)
  })
})
