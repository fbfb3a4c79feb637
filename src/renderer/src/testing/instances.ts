/**
 * Instances shaped like the spec's, for unit tests and the render benchmark. Not used by the app.
 */
import type { Instance } from '../../../shared/api'
import { makeInstance } from '../../../shared/testing/instance'

export { makeInstance }

/** `count` instances with distinct ids and names, cycling through a few statuses. */
export function makeInstances(count: number): Instance[] {
  const statuses = ['Running', 'Stopped', 'Initializing', 'Running', 'StartingFailed']
  return Array.from({ length: count }, (_, i) =>
    makeInstance({
      id: `notebook-${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
      name: `inst-${String(i + 1).padStart(4, '0')}`,
      status: statuses[i % statuses.length]!,
      createdAt: Date.UTC(2026, 0, 1) - i * 60_000
    })
  )
}
