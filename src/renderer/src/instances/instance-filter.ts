/**
 * Filtering the instance list by name and status group. The server cannot filter, so this runs
 * over the watcher's snapshot.
 */
import type { Instance } from '../../../shared/api'
import { statusGroup, type StatusGroup } from '../../../shared/instance-rules'

export type StatusFilter = 'all' | StatusGroup

export const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'usable', label: 'Running' },
  { value: 'transitioning', label: 'Starting or stopping' },
  { value: 'failed', label: 'Failed' },
  { value: 'ended', label: 'Stopped or released' },
  { value: 'unknown', label: 'Other' }
]

export interface InstanceFilter {
  name: string
  status: StatusFilter
}

export function isFiltering(filter: InstanceFilter): boolean {
  return filter.name.trim() !== '' || filter.status !== 'all'
}

/** The list itself when nothing filters it: the view's rows stay the same array, and 1000 instances are not copied for nothing. */
export function filterInstances(instances: readonly Instance[], filter: InstanceFilter): readonly Instance[] {
  if (!isFiltering(filter)) return instances
  const needle = filter.name.trim().toLowerCase()
  return instances.filter((instance) => {
    if (needle && !instance.instanceSpecInfo.name.toLowerCase().includes(needle)) return false
    if (filter.status !== 'all' && statusGroup(instance.instanceRuntimeInfo.status) !== filter.status) return false
    return true
  })
}

const createdAt = (instance: Instance): number => instance.instanceRuntimeInfo.createAtUnixMs

/**
 * Newest first: what people look for is usually what they just launched. A list that already is
 * (the cloud lists newest first) comes back as it is, checked in one pass, not copied and sorted.
 */
export function sortNewestFirst(instances: readonly Instance[]): readonly Instance[] {
  let sorted = true
  for (let i = 1; i < instances.length && sorted; i++) sorted = createdAt(instances[i - 1]!) >= createdAt(instances[i]!)
  return sorted ? instances : [...instances].sort((a, b) => createdAt(b) - createdAt(a))
}
