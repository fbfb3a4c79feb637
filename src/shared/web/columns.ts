/**
 * A list of like objects sent as columns: one array per leaf path (`instanceRuntimeInfo.status`),
 * N values each, instead of N keyed objects.
 *
 * Why: the page's JSON.parse of a 1000-instance list was most of the time that grew with the
 * list's length, and most of that is building ~10 keyed objects per instance that the page then
 * copies again. Arrays of strings and numbers parse several times faster than the objects that
 * hold them, and the page then builds each object once, in its final shape.
 *
 * Generic, not a copy of the Instance schema: the paths are the data's own, so a field added to
 * the schema travels without a change here. Plain objects are walked; anything else (a string,
 * a number, null, an array) is a leaf sent as it is. A path some rows lack lists those rows in
 * `missing`, so an absent optional field stays absent rather than becoming null. An empty object
 * is a leaf too (it has no paths to stand for it).
 *
 * Paths the sender names as shared (an instance's region, type, image, price, configuration:
 * the same few objects across a whole list) are leaves sent once per distinct value, in `parts`;
 * their column holds indices, and the page's rows share one object for each (read-only, as every
 * snapshot is).
 */

export interface WireColumn {
  /** The leaf's keys from the row's root. */
  path: string[]
  /** One per row; a missing row's slot holds null. */
  values: unknown[]
  /** Rows that lack this path, ascending; absent when every row has it. */
  missing?: number[]
  /** The values are indices into WireColumns.parts. */
  shared?: true
}

export interface WireColumns {
  count: number
  columns: WireColumn[]
  /** The distinct values of the shared paths, each once. */
  parts: unknown[]
}

type Plain = Record<string, unknown>

/** Keys that would reach Object.prototype when set: never in main's data, refused if a message carries them. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

function isPlainObject(value: unknown): value is Plain {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/** A path as `shared` names it: its keys joined with dots (`instanceSpecInfo.regionInfo`). */
export function pathName(path: readonly string[]): string {
  return path.join('.')
}

/** `rows` as columns; a value at a path named in `shared` is sent once per distinct value (equal as JSON). */
export function toColumns(rows: readonly object[], shared: ReadonlySet<string> = new Set()): WireColumns {
  const byPath = new Map<string, WireColumn>()
  const parts: unknown[] = []
  const partIndex = new Map<string, number>()
  const indexOfPart = (value: unknown): number => {
    const text = JSON.stringify(value)
    let index = partIndex.get(text)
    if (index === undefined) {
      index = parts.push(value) - 1
      partIndex.set(text, index)
    }
    return index
  }
  const visit = (value: Plain, path: string[], row: number): void => {
    for (const key of Object.keys(value)) {
      let child = value[key]
      if (child === undefined) continue
      const childPath = [...path, key]
      const isShared = shared.has(pathName(childPath))
      if (!isShared && isPlainObject(child) && Object.keys(child).length > 0) {
        visit(child, childPath, row)
        continue
      }
      if (isShared) child = indexOfPart(child)
      // Keyed by a separator no key has, so a key with a dot in it ("a.b") is not mistaken for a path (a → b).
      const id = childPath.join('\u0000')
      let column = byPath.get(id)
      if (!column) {
        // Rows before this one lacked the path.
        column = { path: childPath, values: new Array<unknown>(row).fill(null), missing: Array.from({ length: row }, (_, i) => i) }
        if (isShared) column.shared = true
        byPath.set(id, column)
      }
      // Rows between the column's last value and this one lacked it.
      while (column.values.length < row) {
        column.missing!.push(column.values.length)
        column.values.push(null)
      }
      column.values.push(child)
    }
  }
  rows.forEach((row, index) => visit(row as Plain, [], index))
  const columns = [...byPath.values()].map((column) => {
    while (column.values.length < rows.length) {
      column.missing!.push(column.values.length)
      column.values.push(null)
    }
    const { missing, ...rest } = column
    return missing && missing.length > 0 ? { ...rest, missing } : rest
  })
  return { count: rows.length, columns, parts }
}

/** A node of the rows' shape: a leaf names its column; an inner node builds an object of its children. */
interface ShapeNode {
  key: string
  column?: { values: unknown[]; absent: Uint8Array | null; parts: unknown[] | null }
  children: ShapeNode[]
}

/** A shared column's values must name parts (a missing row's slot is null); checked before any row is built. */
function checkParts(parts: unknown[], indices: unknown[], absent: Uint8Array | null): void {
  // A plain loop: this runs for every row of every shared column while the page waits to paint.
  for (let row = 0; row < indices.length; row++) {
    const index = indices[row]
    if (absent !== null && absent[row] === 1 && index === null) continue
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= parts.length) {
      throw new Error('shared value out of range')
    }
  }
}

function shapeOf(wire: WireColumns): ShapeNode {
  const root: ShapeNode = { key: '', children: [] }
  for (const column of wire.columns) {
    if (!Array.isArray(column.path) || column.path.length === 0) throw new Error('column without a path')
    if (!Array.isArray(column.values) || column.values.length !== wire.count) throw new Error('column of the wrong length')
    let node = root
    for (const key of column.path) {
      if (typeof key !== 'string' || UNSAFE_KEYS.has(key)) throw new Error('column with an unsafe path')
      let child = node.children.find((c) => c.key === key)
      if (!child) {
        child = { key, children: [] }
        node.children.push(child)
      }
      node = child
    }
    let absent: Uint8Array | null = null
    if (column.missing) {
      absent = new Uint8Array(wire.count)
      for (const row of column.missing) absent[row] = 1
    }
    if (column.shared) checkParts(wire.parts, column.values, absent)
    // A node can be a leaf and have children too: a value that is an object in some rows and not in others.
    node.column = { values: column.values, absent, parts: column.shared ? wire.parts : null }
  }
  return root
}

/**
 * Every row's object under `node` (undefined for a row that has none of its paths), built a
 * column at a time: each loop stores one key into objects of one shape, which V8 does fast,
 * where a row at a time would switch keys on every store. Keys come in the columns' order:
 * the first row's, then any a later row added.
 */
function build(node: ShapeNode, count: number): (Plain | undefined)[] {
  const out = new Array<Plain | undefined>(count).fill(undefined)
  for (const child of node.children) {
    const key = child.key
    if (child.column) {
      const { values, absent, parts } = child.column
      for (let row = 0; row < count; row++) {
        if (absent && absent[row]) continue
        ;(out[row] ??= {})[key] = parts ? parts[values[row] as number] : values[row]
      }
    }
    if (child.children.length > 0) {
      const inner = build(child, count)
      for (let row = 0; row < count; row++) {
        const value = inner[row]
        if (value !== undefined) (out[row] ??= {})[key] = value
      }
    }
  }
  return out
}

/** The rows again, each built once. Throws on a malformed message (main never sends one). */
export function fromColumns<T>(wire: WireColumns): T[] {
  if (!Number.isInteger(wire.count) || wire.count < 0 || !Array.isArray(wire.columns) || !Array.isArray(wire.parts)) {
    throw new Error('not a column list')
  }
  return build(shapeOf(wire), wire.count).map((row) => (row ?? {}) as T)
}
