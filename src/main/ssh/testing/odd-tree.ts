/**
 * A folder tree whose names are what users actually have and shells choke on (spaces, quotes,
 * newlines, non-ASCII, `$(…)`, a leading dash, a backslash), with empty files and folders and one
 * file large enough to need many SFTP requests in flight; and a byte-for-byte comparison.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { localNameFor } from '../sftp/local-names'

/** The shell would run `touch` for this name if it ever reached one: the test looks for the marker. */
export const INJECTION_MARKER = 'cloudtray-pwned'

export const ODD_NAMES = [
  'plain.txt',
  'with space.txt',
  `quote's "double".txt`,
  'new\nline.txt',
  'ünïcødé 文件 🚀.bin',
  `$(touch ${INJECTION_MARKER}).txt`,
  '-rf',
  'back\\slash',
  'tab\there',
  '.hidden'
]

/** Makes `<parent>/<root>` with the odd names at two levels; answers the root's name. */
export function makeOddTree(parent: string, root = 'odd tree', bigBytes = 20 * 1024 * 1024): string {
  const top = join(parent, root)
  mkdirSync(join(top, 'sub dir', 'deeper'), { recursive: true })
  mkdirSync(join(top, 'empty folder'))
  for (const [index, name] of ODD_NAMES.entries()) {
    writeFileSync(join(top, name), `${name}\n${'x'.repeat(index * 1000)}`)
    writeFileSync(join(top, 'sub dir', name), randomBytes(1000 + index))
  }
  writeFileSync(join(top, 'sub dir', 'deeper', 'empty'), '')
  writeFileSync(join(top, 'sub dir', 'deeper', 'big.bin'), randomBytes(bigBytes))
  return root
}

/** Every file and folder under `root`, relative, with file contents; for toEqual. */
export function treeOf(root: string): Record<string, string | 'folder'> {
  const out: Record<string, string | 'folder'> = {}
  const visit = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      const key = prefix ? `${prefix}/${name}` : name
      if (statSync(path).isDirectory()) {
        out[key] = 'folder'
        visit(path, key)
      } else out[key] = readFileSync(path).toString('base64')
    }
  }
  visit(root, '')
  return out
}

/**
 * A tree as a download writes it here: the names local-names.ts does not write as the instance
 * spells them (a newline, a tab, a backslash) renamed, the contents the same.
 */
export function renamedTree(tree: Record<string, string>): Record<string, string> {
  const local = (path: string): string =>
    path
      .split('/')
      .map((name) => {
        const decided = localNameFor(name)
        return decided.ok ? decided.name : name
      })
      .join('/')
  return Object.fromEntries(Object.entries(tree).map(([path, content]) => [local(path), content]))
}
