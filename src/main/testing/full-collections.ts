/**
 * Counts V8's full collections (mark-compact) in this process while a phase runs: how
 * `heap-growth.test.ts` and the transfer benches tell whether a flood ran in the regime that
 * `src/main/heap-growth.ts` keeps main out of (a full collection every few dozen ms).
 */
import { PerformanceObserver, constants } from 'node:perf_hooks'

const isFull = (entry: object): boolean => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR

/** Starts counting; the returned function stops and answers the full collections seen meanwhile. */
export function countFullCollections(): () => number {
  let count = 0
  const observer = new PerformanceObserver((list) => {
    count += list.getEntries().filter(isFull).length
  })
  observer.observe({ entryTypes: ['gc'] })
  return () => {
    // Entries are delivered asynchronously: take what is queued before stopping.
    count += observer.takeRecords().filter(isFull).length
    observer.disconnect()
    return count
  }
}
