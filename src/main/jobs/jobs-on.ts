/**
 * The jobs part as core.ts builds it: over the SSH wing's links and tmux sessions, stopping
 * through the cost guard's countdown, its Open showing the window. One line in the table of
 * contents; what it needs of each other part is named here.
 */
import type { Clock } from '../../shared/clock'
import type { EventFeed, EventSink, Platform } from '../core-types'
import type { SshWing } from '../ssh/ssh-wing'
import { JobStore } from './job-store'
import { Jobs, type JobsOptions } from './jobs'
import type { SaveProblems } from '../util/save-problems'

export interface JobsParts {
  dataDir: string
  problems: SaveProblems
  clock: Clock
  emit: EventSink
  events: EventFeed
  wing: Pick<SshWing, 'links' | 'sessions'>
  account: JobsOptions['account']
  watcher: JobsOptions['watcher']
  notifier: JobsOptions['notify']
  guard: { stopAfterJob(instanceId: string, reason: string): number | undefined }
  platform: Pick<Platform, 'showWindow'>
  log?: JobsOptions['log'] | undefined
}

export function jobsOn(parts: JobsParts): Jobs {
  const { wing, emit, platform, log } = parts
  return new Jobs({
    clock: parts.clock,
    store: new JobStore(parts.dataDir, parts.problems),
    emit,
    events: parts.events,
    exec: (instanceId, command, options) => wing.links.exec(instanceId, command, options),
    probe: (instanceId) => wing.sessions.probe(instanceId),
    endSession: (instanceId, name) => wing.sessions.end(instanceId, { socket: 'ours', name }),
    account: parts.account,
    watcher: parts.watcher,
    notify: parts.notifier,
    stopAfterJob: (instanceId, reason) => parts.guard.stopAfterJob(instanceId, reason),
    navigate: (target) => {
      platform.showWindow()
      emit('navigate', target)
    },
    ...(log ? { log } : {})
  })
}
