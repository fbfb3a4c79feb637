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

export function filterInstances(instances: readonly Instance[], filter: InstanceFilter): Instance[] {
  const needle = filter.name.trim().toLowerCase()
  return instances.filter((instance) => {
    if (needle && !instance.instanceSpecInfo.name.toLowerCase().includes(needle)) return false
    if (filter.status !== 'all' && statusGroup(instance.instanceRuntimeInfo.status) !== filter.status) return false
    return true
  })
}

/** Newest first: what people look for is usually what they just launched. */
export function sortNewestFirst(instances: readonly Instance[]): Instance[] {
  return [...instances].sort((a, b) => b.instanceRuntimeInfo.createAtUnixMs - a.instanceRuntimeInfo.createAtUnixMs)
}
