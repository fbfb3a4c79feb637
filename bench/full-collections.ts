/**
 * Counts V8's full collections (mark-compact) in this process while a phase runs, so that a
 * transfer bench's output says which of two regimes its app phase ran in.
 *
 * ssh-throughput and tunnel-throughput run the app's data path in the bench's own bare Node
 * process, whose heap (~12 MB live) is a fraction of a process that runs the core (memory.ts: the
 * web shell's, ~56 MB; the built main under the Electron stand-in, with the Sandbox: 35–42 MB).
 * V8 sizes the old generation's headroom by the live heap, a few MB here, and the buffers a flood
 * allocates (Node's 64 KiB socket reads, ssh2's packets: memory outside the JS heap) count against
 * that headroom until a full collection frees them. Some runs therefore fall into a full
 * collection every ~70 ms and no scavenges at all, and stay there: 50–60 per 256 MiB flood, with
 * the app's JavaScript time ~1.2 s instead of ~0.6 s. Runs whose heap long-lived objects raised to
 * 52 MB or more saw 0–2; at 35–37 MB, one run of two still fell in. README, "Performance".
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
