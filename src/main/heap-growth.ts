/**
 * Main's V8 heap growth, pinned by both shells' entries (`index.ts`, `src/web/cli.ts`) so that a
 * terminal flood or a tunnel does not run a full garbage collection every few dozen milliseconds.
 *
 * Why: main keeps a small JavaScript heap (12–42 MB live) and passes hundreds of MB/s through
 * buffers outside it (Node's socket reads, ssh2's decrypted packets). V8 counts those buffers
 * against the old generation's allocation limit until a collection frees them, and after each full
 * collection it sets that limit from the live heap times a growing factor it picks from its
 * measured speeds. During a flood the measured allocation rate is so high that the factor falls to
 * its floor: the limit comes out at the live heap plus ~16 MB, no more than the young generation
 * then holds, so marking starts again at once. Measured here (Node 20, `--trace-gc`): a full
 * collection every ~70 ms and no scavenges, 50–60 per 256 MiB terminal flood and 10–14 per tunnel
 * pull, and 20–30 % less throughput than a run that escapes it. Pinned at 4 (the highest factor V8
 * picks by itself on a desktop), the limit is four times the live heap, scavenges free the buffers
 * first, and the same floods meet 0–1 full collections.
 *
 * The cost is memory held as garbage: up to four times the live heap plus the young generation
 * before a full collection (a 52 MB limit at 12 MB live, as traced; ~185 MB at 42), which V8's
 * memory reducer still runs when main goes quiet. Main's heap and RSS in `bench/memory.ts` and
 * its idle CPU in `bench/idle.ts` were no worse with it than without.
 * `heap-growth.test.ts` proves the effect on a terminal flood through the app's SSH session;
 * `e2e/electron/main-heap.spec.ts` counts main's full collections in Electron's own V8, where a
 * binary exists (the GitHub workflow).
 * V8 reads the factor at every full collection, so setting it once main runs takes effect: Node
 * and Electron's main both start V8 with `--no-freeze-flags-after-init` (Node's `node.cc`,
 * Electron's `shell/browser/javascript_environment.cc`), which keeps `setFlagsFromString` open.
 */
import { setFlagsFromString } from 'node:v8'

/** The growing factor, as V8's flag states it: factor = 1 + percent / 100. */
const MAIN_HEAP_GROWING_PERCENT = 300

/** Pins V8's heap growing factor for this process (main, or a bench playing main). */
export function pinMainHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${MAIN_HEAP_GROWING_PERCENT}`)
}
