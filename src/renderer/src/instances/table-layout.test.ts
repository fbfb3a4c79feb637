import { describe, expect, it } from 'vitest'
import { TWO_LINE_FROM_PX, WIDE_FROM_PX, tableLayout } from './table-layout'

describe('the instance table at a width', () => {
  it('wide: every column shows, header and rows alike', () => {
    const layout = tableLayout(WIDE_FROM_PX)
    expect(layout).toMatchObject({ tier: 'wide', rowHeight: 52 })
    expect([...layout.spokenOnly.row, ...layout.spokenOnly.head]).toEqual([])
  })

  it('two lines: the region goes to the details; the header names what stands on the second line for screen readers', () => {
    const layout = tableLayout(TWO_LINE_FROM_PX)
    expect(layout.tier).toBe('two-line')
    expect([...layout.spokenOnly.row]).toEqual(['region'])
    expect([...layout.spokenOnly.head].sort()).toEqual(['actions', 'gpu', 'region'])
  })

  it('narrow: name, status, price and the actions show; the rest is spoken only', () => {
    const layout = tableLayout(TWO_LINE_FROM_PX - 1)
    expect(layout.tier).toBe('narrow')
    expect([...layout.spokenOnly.row].sort()).toEqual(['gpu', 'load', 'region', 'uptime'])
    expect(layout.spokenOnly.head.has('actions')).toBe(true)
    expect(layout.spokenOnly.head.has('name') || layout.spokenOnly.head.has('status') || layout.spokenOnly.head.has('price')).toBe(false)
  })
})
