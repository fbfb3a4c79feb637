import { describe, expect, it } from 'vitest'
import type { PagerRequest } from '../../shared/api'
import { walkPages, type Page } from './paging'
import { highest } from '../../shared/extremes'

interface Item {
  id: string
}

/** A fake paged list over `items`, recording requests and the most pages in flight at once. */
function pagedList(items: () => Item[], options: { maxPageSize?: number; failOn?: number } = {}) {
  const requested: number[] = []
  let inFlight = 0
  let maxInFlight = 0
  const fetchPage = async (pager: PagerRequest): Promise<Page<Item>> => {
    requested.push(pager.currentPage)
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    // Let every started page be in flight together before any answers.
    await new Promise((resolve) => setImmediate(resolve))
    inFlight--
    if (pager.currentPage === options.failOn) throw new Error(`page ${pager.currentPage} failed`)
    const size = Math.min(pager.pageSize, options.maxPageSize ?? Infinity)
    const all = items()
    const start = (pager.currentPage - 1) * size
    return {
      items: all.slice(start, start + size),
      pager: { currentPage: pager.currentPage, pageSize: size, totalEntries: all.length }
    }
  }
  return { fetchPage, requested, maxInFlight: () => maxInFlight }
}

const ids = (count: number, prefix = 'i'): Item[] => Array.from({ length: count }, (_, n) => ({ id: `${prefix}${n}` }))
const options = { pageSize: 10, concurrency: 4, maxPages: 1000, keyOf: (item: Item) => item.id }

describe('walkPages', () => {
  it('fetches every page, in order, with at most `concurrency` pages in flight', async () => {
    const list = pagedList(() => ids(95))
    const all = (await walkPages(list.fetchPage, options)).items
    expect(all.map((item) => item.id)).toEqual(ids(95).map((item) => item.id))
    expect(list.requested[0]).toBe(1)
    expect([...list.requested].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(list.maxInFlight()).toBe(4)
  })

  it('asks once when everything fits on the first page, and handles an empty list', async () => {
    const small = pagedList(() => ids(10))
    expect((await walkPages(small.fetchPage, options)).items).toHaveLength(10)
    expect(small.requested).toEqual([1])
    const empty = pagedList(() => [])
    expect((await walkPages(empty.fetchPage, options)).items).toEqual([])
    expect(empty.requested).toEqual([1])
  })

  it('dedupes an entry pushed onto the next page by a create during the walk', async () => {
    let items = ids(30)
    const list = pagedList(() => items)
    const fetchPage = async (pager: PagerRequest) => {
      const page = await list.fetchPage(pager)
      // After page 1, a new instance appears at the front: every entry moves one place down.
      if (pager.currentPage === 1) items = [{ id: 'new' }, ...items]
      return page
    }
    const all = (await walkPages(fetchPage, options)).items
    const seen = all.map((item) => item.id)
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.slice(0, 30)).toEqual(ids(30).map((item) => item.id))
    expect(list.requested.sort((a, b) => a - b)).toEqual([1, 2, 3, 4])
  })

  it('follows a total that grows while walking', async () => {
    let items = ids(25)
    const list = pagedList(() => items)
    const fetchPage = async (pager: PagerRequest) => {
      if (pager.currentPage === 2) items = ids(45)
      return list.fetchPage(pager)
    }
    const all = (await walkPages(fetchPage, options)).items
    expect(all).toHaveLength(45)
  })

  it('pages with the size the server actually used when it caps the page size', async () => {
    const list = pagedList(() => ids(95), { maxPageSize: 20 })
    const walk = await walkPages(list.fetchPage, { ...options, pageSize: 50 })
    expect(walk.items).toHaveLength(95)
    expect(walk.pageSizeHonored).toBe(false)
    expect(list.requested.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5])
  })

  it('rejects with the first failure and starts no new pages after it', async () => {
    const list = pagedList(() => ids(200), { failOn: 3 })
    let requestedAtFailure = -1
    const fetchPage = async (pager: PagerRequest) => {
      try {
        return await list.fetchPage(pager)
      } catch (error) {
        requestedAtFailure = list.requested.length
        throw error
      }
    }
    await expect(walkPages(fetchPage, options)).rejects.toThrow('page 3 failed')
    // Let the pages still in flight finish: none of them may start another.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve))
    expect(requestedAtFailure).toBeGreaterThan(0)
    expect(list.requested).toHaveLength(requestedAtFailure)
    expect(list.requested.length).toBeLessThan(20)
  })

  it('never walks more than maxPages, whatever total the server claims', async () => {
    const requested: number[] = []
    const liar = async (pager: PagerRequest): Promise<Page<Item>> => {
      requested.push(pager.currentPage)
      return { items: ids(10, `p${pager.currentPage}-`), pager: { currentPage: pager.currentPage, pageSize: 10, totalEntries: 1e12 } }
    }
    const all = (await walkPages(liar, { ...options, maxPages: 7 })).items
    expect(all).toHaveLength(70)
    expect(requested).toHaveLength(7)
  })

  it('#12 item 6: stops at the first short or empty page, whatever total the server claims', async () => {
    for (const pageOneSize of [0, 3, 10]) {
      const requested: number[] = []
      // A huge total, page 1 as given, every later page empty.
      const liar = async (pager: PagerRequest): Promise<Page<Item>> => {
        requested.push(pager.currentPage)
        const items = pager.currentPage === 1 ? ids(pageOneSize) : []
        return { items, pager: { currentPage: pager.currentPage, pageSize: 10, totalEntries: 1e9 } }
      }
      const walk = await walkPages(liar, { ...options, maxPages: 2000 })
      expect(walk.items).toHaveLength(pageOneSize)
      // A short page 1 ends the walk; a full one lets one wave of pages go out, then the first empty one ends it.
      expect(requested.length).toBeLessThanOrEqual(pageOneSize === 10 ? 1 + options.concurrency : 1)
      // The next poll does not guess pages from the claimed total either.
      requested.length = 0
      await walkPages(liar, { ...options, maxPages: 2000, expectedTotal: walk.totalEntries })
      expect(requested.length).toBeLessThanOrEqual(pageOneSize === 10 ? 1 + options.concurrency : 1)
    }
  })

  it('#12 item 6: a short page in the middle ends the walk, even when guessing from the last total', async () => {
    const requested: number[] = []
    const liar = async (pager: PagerRequest): Promise<Page<Item>> => {
      requested.push(pager.currentPage)
      const items = pager.currentPage <= 2 ? ids(10, `p${pager.currentPage}-`) : pager.currentPage === 3 ? ids(4, 'p3-') : []
      return { items, pager: { currentPage: pager.currentPage, pageSize: 10, totalEntries: 5e6 } }
    }
    const walk = await walkPages(liar, { ...options, expectedTotal: 5e6 })
    expect(walk.items).toHaveLength(24)
    expect(highest(requested)).toBeLessThanOrEqual(3 + options.concurrency)
    expect(requested.length).toBeLessThanOrEqual(3 + options.concurrency)
  })
})

describe('walkPages with the total of the previous walk', () => {
  it('asks for page 1 and the next pages at once, saving a round trip', async () => {
    const list = pagedList(() => ids(95))
    const walk = await walkPages(list.fetchPage, { ...options, expectedTotal: 95 })
    expect(walk.items.map((item) => item.id)).toEqual(ids(95).map((item) => item.id))
    expect(walk.totalEntries).toBe(95)
    expect(walk.pageSizeHonored).toBe(true)
    // The first wave is pages 1–4 together, not page 1 alone.
    expect(list.requested.slice(0, 4)).toEqual([1, 2, 3, 4])
    expect(list.requested).toHaveLength(10)
    expect(list.maxInFlight()).toBe(4)
  })

  it('lets page 1 correct a guess that was too high', async () => {
    const list = pagedList(() => ids(15))
    const walk = await walkPages(list.fetchPage, { ...options, expectedTotal: 1000 })
    expect(walk.items).toHaveLength(15)
    // Only the first wave was wasted; nothing past page 2 was started after page 1 answered.
    expect(list.requested.length).toBeLessThanOrEqual(4)
  })

  it('follows a list that grew past the guess', async () => {
    const list = pagedList(() => ids(64))
    const walk = await walkPages(list.fetchPage, { ...options, expectedTotal: 25 })
    expect(walk.items).toHaveLength(64)
  })

  it('walks again, properly sized, when the service capped the page size', async () => {
    const list = pagedList(() => ids(95), { maxPageSize: 20 })
    const walk = await walkPages(list.fetchPage, { ...options, pageSize: 50, expectedTotal: 95 })
    expect(walk.items.map((item) => item.id)).toEqual(ids(95).map((item) => item.id))
    expect(walk.pageSizeHonored).toBe(false)
  })

  it('does not guess when everything fit on one page last time', async () => {
    const list = pagedList(() => ids(8))
    await walkPages(list.fetchPage, { ...options, expectedTotal: 8 })
    expect(list.requested).toEqual([1])
  })
})
