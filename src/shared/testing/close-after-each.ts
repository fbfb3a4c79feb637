/**
 * One home for the teardown every suite against a live emulator or core repeated
 * (`let x; afterEach(() => x?.close())`): what a test opens through `track`, and any cleanup it
 * hands to `defer`, runs when that test ends, passed or failed, the last registered first.
 */
import { afterEach } from 'vitest'

export interface Closable {
  close(): Promise<void> | void
}

export interface Teardown<T extends Closable> {
  /** Closes `opened` after this test; returns it, to open and track in one line. */
  track(opened: T): T
  /** Runs `cleanup` after this test. */
  defer(cleanup: () => unknown): void
}

export function closeAfterEach<T extends Closable = Closable>(): Teardown<T> {
  const cleanups: (() => unknown)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return {
    track(opened) {
      cleanups.push(() => opened.close())
      return opened
    },
    defer(cleanup) {
      cleanups.push(cleanup)
    }
  }
}
