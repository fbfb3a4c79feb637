/** A SaveProblems that writes down each refused write ("<path>: <what>"), for tests to look at. */
import type { SaveProblems } from '../util/save-problems'

export function recordedProblems(): { problems: SaveProblems; failures: string[] } {
  const failures: string[] = []
  return { problems: { failed: (path, what) => failures.push(`${path}: ${what}`), saved: () => undefined }, failures }
}
