/**
 * Walking a paged list: the first page says how many entries there are, then the remaining pages
 * are fetched concurrently (a bounded number at a time) and joined in page order.
 *
 * The list can change while we walk it (the newest instance comes first, so a create pushes every
 * entry one place down). An entry can therefore appear on two pages, which we dedupe by id; and
 * the total can grow, which later pages report and we follow, up to a hard page cap.
 *
 * A hostile or broken service can claim any total. The list ends at the first page that comes back
 * short (fewer entries than the page size) or empty, whatever the total says: otherwise a claimed
 * total of millions with empty pages would send up to `maxPages` requests on every poll.
 *
 * A poller walks the same list again and again. Given the total of its last walk
 * (`expectedTotal`), the walk does not wait for page 1 before asking for the others: it starts
 * pages 1…n at once, saving one round trip per poll. Page 1's answer then replaces the guess.
 */
import type { PagerRequest, PagerResponse } from '../../shared/api'

export interface Page<T> {
  items: T[]
  pager: PagerResponse
}

export interface WalkOptions<T> {
  pageSize: number
  /** Pages in flight at once. */
  concurrency: number
  /** Stops a lying or runaway total from fetching forever. */
  maxPages: number
  /** Identity for dedupe. */
  keyOf: (item: T) => string
  /** The total seen by the previous walk of this list, if any: pages are requested without waiting for page 1. */
  expectedTotal?: number
}

export interface Walk<T> {
  items: T[]
  /** The total the service reported last: the next walk's expectedTotal. */
  totalEntries: number
  /** False when the service used a smaller page size than asked (then the next walk must not guess). */
  pageSizeHonored: boolean
}

export async function walkPages<T>(fetchPage: (pager: PagerRequest) => Promise<Page<T>>, options: WalkOptions<T>): Promise<Walk<T>> {
  const guess = options.expectedTotal
  if (guess !== undefined && Number.isFinite(guess) && guess > options.pageSize) {
    const speculative = await walk(fetchPage, options, undefined)
    // The service paged with another size than we asked: the guessed pages do not line up. Walk again.
    if (speculative.pageSizeHonored) return speculative
  }
  const first = await fetchPage({ currentPage: 1, pageSize: options.pageSize })
  return walk(fetchPage, options, first)
}

/**
 * With `first`: pages 2… sized by what page 1 said. Without: pages 1… sized by the guess, where
 * page 1's total replaces the guess as soon as it arrives.
 */
async function walk<T>(
  fetchPage: (pager: PagerRequest) => Promise<Page<T>>,
  options: WalkOptions<T>,
  first: Page<T> | undefined
): Promise<Walk<T>> {
  // A server may cap the page size below what we asked; page with the size it actually used.
  const echoed = first?.pager.pageSize
  const size = echoed !== undefined && Number.isInteger(echoed) && echoed >= 1 && echoed <= options.pageSize ? echoed : options.pageSize
  const pagesFor = (total: number): number =>
    Number.isFinite(total) && total > 0 ? Math.min(options.maxPages, Math.ceil(total / size)) : 1

  const pages: T[][] = []
  let lastPage: number
  let nextPage: number
  let totalEntries: number
  const pageSizeHonored = size === options.pageSize
  /** Speculative walk only: page 1 shows the service used another page size, so the guessed pages are wrong. */
  let misaligned = false
  if (first) {
    pages[0] = first.items
    totalEntries = first.pager.totalEntries
    lastPage = pagesFor(totalEntries)
    nextPage = 2
  } else {
    totalEntries = options.expectedTotal ?? 0
    lastPage = pagesFor(totalEntries)
    nextPage = 1
  }
  let failed = false
  /** The first page that came back short or empty: the list ends there, whatever the total claims. */
  let endPage = first && first.items.length < size ? 1 : Infinity
  lastPage = Math.min(lastPage, endPage)

  async function worker(): Promise<void> {
    while (!failed && !misaligned && nextPage <= lastPage) {
      const current = nextPage++
      try {
        const page = await fetchPage({ currentPage: current, pageSize: size })
        pages[current - 1] = page.items
        totalEntries = page.pager.totalEntries
        if (!first && current === 1) {
          if (page.pager.pageSize !== size) misaligned = true
          // Page 1 is the truth about the total; the guess may have been too high.
          lastPage = pagesFor(totalEntries)
        } else {
          lastPage = Math.max(lastPage, pagesFor(totalEntries))
        }
        if (!misaligned && page.items.length < size) endPage = Math.min(endPage, current)
        lastPage = Math.min(lastPage, endPage)
      } catch (error) {
        failed = true
        throw error
      }
    }
  }

  const remaining = lastPage - nextPage + 1
  const workers = Math.max(1, Math.min(options.concurrency, remaining))
  if (remaining > 0) await Promise.all(Array.from({ length: workers }, () => worker()))

  const seen = new Set<string>()
  const items: T[] = []
  for (const pageItems of pages) {
    for (const item of pageItems ?? []) {
      const key = options.keyOf(item)
      if (seen.has(key)) continue
      seen.add(key)
      items.push(item)
    }
  }
  // A list that ended short has exactly what was seen: the next walk must not guess from a bigger claim.
  const seenTotal = endPage === Infinity ? totalEntries : Math.min(totalEntries, items.length)
  return { items, totalEntries: seenTotal, pageSizeHonored: pageSizeHonored && !misaligned }
}
