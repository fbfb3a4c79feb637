/**
 * How the files panel lists a folder: folders first, names in the order people expect (numbers
 * by value, case ignored), paths split into clickable parts, control characters in names made
 * visible (a newline would break the row), and a free local name when one is taken.
 */
import type { RemoteEntry } from '../../../../shared/contract-files'

export function isFolderLike(entry: RemoteEntry): boolean {
  return entry.type === 'folder' || (entry.type === 'link' && entry.target === 'folder')
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

export function sortEntries(entries: readonly RemoteEntry[]): RemoteEntry[] {
  return [...entries].sort(
    (a, b) => Number(isFolderLike(b)) - Number(isFolderLike(a)) || collator.compare(a.name, b.name) || (a.name < b.name ? -1 : 1)
  )
}

export function joinPath(folder: string, name: string): string {
  return folder === '/' ? `/${name}` : `${folder}/${name}`
}

export function parentPath(path: string): string {
  const at = path.lastIndexOf('/')
  return at <= 0 ? '/' : path.slice(0, at)
}

/** `/home/u/data` → `/`, `home`, `u`, `data`, each with the path it opens. */
export function breadcrumbs(path: string): { name: string; path: string }[] {
  const parts = path.split('/').filter(Boolean)
  return [{ name: '/', path: '/' }, ...parts.map((name, index) => ({ name, path: `/${parts.slice(0, index + 1).join('/')}` }))]
}

/** The name as shown: control characters as visible symbols (the real name is kept for actions). */
export function visibleName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '↵' : c === '\t' ? '⇥' : '�'))
}

/** `name`, or `name (2).ext`, `name (3).ext`… the first not in `taken`. */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name
  const dot = name.lastIndexOf('.')
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${ext}`
    if (!taken.has(candidate)) return candidate
  }
}

/** A name the user typed for a new folder or a rename: what is wrong with it, or null. */
export function nameProblem(name: string): string | null {
  if (name.trim() === '') return 'Enter a name.'
  if (name === '.' || name === '..') return 'That name stands for a folder that already exists.'
  if (name.includes('/')) return 'A name cannot contain “/”.'
  if (new TextEncoder().encode(name).length > 255) return 'That name is too long (255 bytes at most).'
  return null
}
