/**
 * Names and listings from a hostile SFTP server (#21): whatever it lists, the download's names
 * are ones a file can have here, unique in their folder, each entry either named or said to be
 * left out; a listing never holds more than its bound nor takes longer than its time, and only
 * ever fails with the user's words.
 */
import fc from 'fast-check'
import type { FileEntryWithStats } from 'ssh2'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../../shared/clock'
import { AppError } from '../../app-error'
import { readFolder } from './listing'
import { folderNames, localNameFor, NameReport } from './local-names'
import { checkAbsolute, checkName, checkRelative, MAX_NAME_BYTES, MAX_PATH } from './remote-path'
import type { SftpClient } from './sftp-client'

/** Names a server might list: plain, odd, impossible, repeated, long. */
const hostileName = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', '.', '..', 'a/b', '../../x', '/abs', 'a\\b', '\n', 'nul\0', 'CON', 'a.', 'same', 'Same', 'x'.repeat(300), '\u202e'),
  fc.string({ unit: fc.constantFrom('a', '/', '\\', '.', '\n', '\u0007', '\u202e', 'é', '😀', ' '), maxLength: 300 })
)
const platform = fc.constantFrom<NodeJS.Platform>('linux', 'darwin', 'win32')
const UNSAFE = /[\p{Cc}\u2028\u2029\\]|(?![\u200C\u200D])\p{Cf}/u

describe('download names, whatever the instance lists', () => {
  it('each name is one a file can have here, unique in its folder; every other entry is reported left out', () => {
    fc.assert(
      fc.property(fc.array(hostileName, { maxLength: 40 }), platform, (names, on) => {
        const report = new NameReport()
        const locals = folderNames(names, report, on)
        expect(locals).toHaveLength(names.length)
        const fold = (name: string): string => (on === 'linux' ? name : name.toLowerCase())
        const kept = locals.filter((name): name is string => name !== undefined)
        expect(new Set(kept.map(fold)).size).toBe(kept.length)
        for (const name of kept) {
          expect(checkName(name).ok).toBe(true)
          expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(MAX_NAME_BYTES)
          expect(UNSAFE.test(name)).toBe(false)
          if (on === 'win32') expect(/[<>:"|?*]|[. ]$/.test(name)).toBe(false)
        }
        expect(report.leftCount).toBe(names.length - kept.length)
        const note = report.note()
        if (note !== undefined) expect(note.length).toBeLessThan(1_200)
        else expect(kept).toEqual(names)
      })
    )
  })

  it('localNameFor never throws, and a name it keeps unrenamed is the name given', () => {
    fc.assert(
      fc.property(hostileName, platform, (name, on) => {
        const local = localNameFor(name, on)
        if (local.ok && !local.renamed) expect(local.name).toBe(name)
        if (!local.ok) expect(checkName(name).ok && !name.includes('\0')).toBe(false)
      })
    )
  })

  it('paths from a window: checked, never throwing, bounded', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 5_000 }),
          fc.array(hostileName, { maxLength: 10 }).map((names) => `/${names.join('/')}`)
        ),
        (path) => {
          const absolute = checkAbsolute(path)
          if (absolute.ok) {
            expect(absolute.value.startsWith('/')).toBe(true)
            expect(absolute.value.length).toBeLessThanOrEqual(MAX_PATH)
            expect(absolute.value.split('/').some((part) => part === '.' || part === '..')).toBe(false)
          }
          const relative = checkRelative(path)
          if (relative.ok) for (const part of relative.value) expect(checkName(part).ok).toBe(true)
        }
      )
    )
  })
})

/** An SFTP server's READDIR pages, made up: some pages, then the end, or never the end. */
function fakeServer(pages: FileEntryWithStats[][], ending: 'eof' | 'endless' | 'silent', failAt?: number) {
  let read = 0
  let closed = 0
  const sftp = {
    realpath: async (path: string) => path,
    opendir: async () => Buffer.from('h'),
    readdirPage: (): Promise<FileEntryWithStats[] | undefined> => {
      const index = read++
      if (failAt === index) return Promise.reject(Object.assign(new Error('Failure'), { code: 4 }))
      if (index < pages.length) return Promise.resolve(pages[index])
      if (ending === 'eof') return Promise.resolve(undefined)
      if (ending === 'silent') return new Promise(() => {})
      return Promise.resolve(pages[index % Math.max(1, pages.length)] ?? [entry('again')])
    },
    close: async () => void closed++
  } as unknown as SftpClient
  return { sftp, pagesRead: () => read, closed: () => closed }
}

function entry(filename: string): FileEntryWithStats {
  return { filename, longname: `-rw-r--r-- 1 u u 0 ${filename}`, attrs: { mode: 0o100644, size: 0 } } as unknown as FileEntryWithStats
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('a folder listing, whatever the server answers', () => {
  it('holds at most the bound, ends within its time, closes the folder, and fails only in the user’s words', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(hostileName.map(entry), { maxLength: 60 }), { maxLength: 8 }),
        fc.constantFrom<'eof' | 'endless' | 'silent'>('eof', 'endless', 'silent'),
        fc.option(fc.nat({ max: 10 }), { nil: undefined }),
        fc.integer({ min: 1, max: 100 }),
        async (pages, ending, failAt, maxEntries) => {
          const clock = new ManualClock()
          const server = fakeServer(pages, ending, failAt)
          const outcome = readFolder(server.sftp, '/home/u/x', clock, { resolve: true, maxEntries, timeoutMs: 30_000 }).then(
            (listed) => ({ listed }),
            (error: unknown) => ({ error })
          )
          // The app's time passes while the server dawdles.
          for (let step = 0; step < 40; step++) {
            await settle()
            clock.advance(1_000)
          }
          const result = await outcome
          if ('listed' in result) {
            expect(result.listed.entries.length).toBeLessThanOrEqual(maxEntries)
            expect(result.listed.entries.some((item) => item.filename === '.' || item.filename === '..')).toBe(false)
          } else {
            expect(result.error).toBeInstanceOf(AppError)
            expect((result.error as AppError).message.length).toBeLessThan(400)
          }
          await settle()
          expect(server.closed()).toBe(1)
          // It stopped asking once past its bound: at most one page beyond it.
          expect(server.pagesRead()).toBeLessThanOrEqual(pages.length + maxEntries + 2)
        }
      ),
      { numRuns: 60 }
    )
  })
})
