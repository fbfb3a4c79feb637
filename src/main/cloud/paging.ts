/**
 * Walking a paged list: the first page says how many entries there are, then the remaining pages
 * are fetched concurrently (a bounded number at a time) and joined in page order.
 *
 * The list can change while we walk it (the newest instance comes first, so a create pushes every
 * entry one place down). An entry can therefore appear on two pages, which we dedupe by id; and
 * the total can grow, which later pages report and we follow, up to a hard page cap.
 */
import type { PagerRequest, PagerResponse } from '../../shared/api'

export interface Page<T> {
  items: T[]
  pager: PagerResponse
}

export interface WalkOptions<T> {
  pageSize: number
  /** Pages in flight at once after the first. */
  concurrency: number
  /** Stops a lying or runaway total from fetching forever. */
  maxPages: number
  /** Identity for dedupe. */
  keyOf: (item: T) => string
}

export async function walkPages<T>(
  fetchPage: (pager: PagerRequest) => Promise<Page<T>>,
  options: WalkOptions<T>
): Promise<T[]> {
  const first = await fetchPage({ currentPage: 1, pageSize: options.pageSize })
  // A server may cap the page size below what we asked; page with the size it actually used.
  const echoed = first.pager.pageSize
  const size =
    Number.isInteger(echoed) && echoed >= 1 && echoed <= options.pageSize ? echoed : options.pageSize
  const pagesFor = (total: number): number =>
    Number.isFinite(total) && total > 0 ? Math.min(options.maxPages, Math.ceil(total / size)) : 1

  const pages: T[][] = [first.items]
  let lastPage = pagesFor(first.pager.totalEntries)
  let nextPage = 2
  let failed = false

  async function worker(): Promise<void> {
    while (!failed && nextPage <= lastPage) {
      const current = nextPage++
      try {
        const page = await fetchPage({ currentPage: current, pageSize: size })
        pages[current - 1] = page.items
        lastPage = Math.max(lastPage, pagesFor(page.pager.totalEntries))
      } catch (error) {
        failed = true
        throw error
      }
    }
  }

  const workers = Math.max(1, Math.min(options.concurrency, lastPage - 1))
  await Promise.all(Array.from({ length: workers }, () => worker()))

  const seen = new Set<string>()
  const all: T[] = []
  for (const items of pages) {
    for (const item of items ?? []) {
      const key = options.keyOf(item)
      if (seen.has(key)) continue
      seen.add(key)
      all.push(item)
    }
  }
  return all
}
