import { describe, expect, it } from 'vitest'
import { fromColumns, toColumns, type WireColumns } from './columns'

/** Through JSON, as the page gets it. */
const roundTrip = <T>(rows: T[], shared?: ReadonlySet<string>): T[] =>
  fromColumns<T>(JSON.parse(JSON.stringify(toColumns(rows as object[], shared))) as WireColumns)

describe('rows as columns', () => {
  it('one column per leaf path, each as long as the list', () => {
    const wire = toColumns([
      { a: 1, b: { c: 'x', d: [1, 2] } },
      { a: 2, b: { c: 'y', d: [] } }
    ])
    expect(wire.count).toBe(2)
    expect(wire.columns).toEqual([
      { path: ['a'], values: [1, 2] },
      { path: ['b', 'c'], values: ['x', 'y'] },
      { path: ['b', 'd'], values: [[1, 2], []] }
    ])
  })

  it('a field some rows lack stays absent there, whether the first, a middle or the last row has it', () => {
    const rows: Record<string, unknown>[] = [{ a: 1, only: 'first' }, { a: 2, mid: { deep: true } }, { a: 3 }, { a: 4, last: null }]
    const wire = toColumns(rows)
    expect(wire.columns.find((c) => c.path[0] === 'only')!.missing).toEqual([1, 2, 3])
    expect(wire.columns.find((c) => c.path[0] === 'last')!.missing).toEqual([0, 1, 2])
    const back = roundTrip(rows)
    expect(back).toEqual(rows)
    expect(back[0]).not.toHaveProperty('mid')
    expect(back[3]).toHaveProperty('last', null)
  })

  it('a value that is an object in one row and not in another, an empty object, nulls and arrays of objects', () => {
    const rows: Record<string, unknown>[] = [
      { v: { x: 1 }, e: {}, n: null, list: [{ p: 1 }] },
      { v: 'plain', e: { now: 'full' }, n: 0, list: [] },
      { v: { y: 2 }, e: {}, n: false, list: [{ p: 2 }, { p: 3 }] }
    ]
    expect(roundTrip(rows)).toEqual(rows)
  })

  it('a key with a dot in it is a key, not a path', () => {
    const rows = [{ 'a.b': 1, a: { b: 2 } }]
    expect(toColumns(rows).columns).toHaveLength(2)
    expect(roundTrip(rows)).toEqual(rows)
  })

  it('values at a shared path are sent once per distinct value, and the rows share one object for each', () => {
    const region = { name: 'Singapore 1', value: 'sg-1' }
    const rows = [
      { id: 'a', region },
      { id: 'b', region: { ...region } },
      { id: 'c', region: { name: 'Frankfurt 2', value: 'de-2' } },
      { id: 'd' }
    ]
    const wire = toColumns(rows, new Set(['region']))
    expect(wire.parts).toEqual([region, rows[2]!.region])
    expect(wire.columns.find((c) => c.path[0] === 'region')).toEqual({
      path: ['region'],
      values: [0, 0, 1, null],
      missing: [3],
      shared: true
    })
    const back = roundTrip(rows, new Set(['region']))
    expect(back).toEqual(rows)
    expect(back[0]!.region).toBe(back[1]!.region)
    expect(back[3]).not.toHaveProperty('region')
  })

  it('builds no row from a malformed message', () => {
    const good = toColumns([{ a: 1, s: { k: 1 } }], new Set(['s']))
    const bad = (change: (wire: WireColumns) => void): (() => unknown) => {
      const wire = structuredClone(good)
      change(wire)
      return () => fromColumns(wire)
    }
    expect(bad((w) => (w.columns[0]!.path = ['__proto__', 'polluted']))).toThrow(/unsafe/)
    expect(bad((w) => (w.columns[0]!.path = ['constructor']))).toThrow(/unsafe/)
    expect(bad((w) => (w.columns[0]!.values = [1, 2]))).toThrow(/length/)
    expect(bad((w) => (w.columns[0]!.path = []))).toThrow(/path/)
    expect(bad((w) => (w.columns[1]!.values = [5]))).toThrow(/range/)
    expect(bad((w) => (w.count = -1))).toThrow(/column list/)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
