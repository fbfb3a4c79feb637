/**
 * Server lists can repeat an entry (a buggy or hostile service, or a page boundary that moved
 * while we read): the same instance id twice, a volume id twice, port 8888 listed twice. Views
 * key their rows by these ids and cannot show two rows with one key, so each list is made
 * unique here before it is shown: the first entry of each key is kept (it is the one the
 * service put first), and `repeated` says how many were left out so a view can say so.
 */
export interface Unique<T> {
  /** The input itself when nothing repeated: read-only, as the input is. */
  items: readonly T[]
  /** Entries left out because an earlier entry had the same key. */
  repeated: number
}

export function uniqueBy<T>(items: readonly T[], keyOf: (item: T) => string | number): Unique<T> {
  const seen = new Set<string | number>()
  const kept: T[] = []
  for (const item of items) {
    const key = keyOf(item)
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(item)
  }
  // Nothing repeated (almost always): the list itself, so views that compare arrays see no change.
  return { items: kept.length === items.length ? items : kept, repeated: items.length - kept.length }
}

/** "2 entries the service listed twice are shown once." for a list view's note, or '' when none. */
export function repeatedNote(repeated: number, what: string): string {
  if (repeated <= 0) return ''
  return repeated === 1
    ? `The service listed one ${what} more than once; it is shown once.`
    : `The service listed ${repeated} ${what}s more than once; each is shown once.`
}
