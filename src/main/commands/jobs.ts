/**
 * Jobs (`jobs.*`): handlers over the jobs part (jobs/jobs.ts). Run a job, list an instance's jobs
 * as the instance reports them now, open a job's terminal, forget an ended one.
 */
import type { Jobs } from '../jobs/jobs'
import type { CommandGroup } from './dispatcher'

type JobsCommand = 'jobs.run' | 'jobs.list' | 'jobs.open' | 'jobs.remove'

export function jobsCommands(jobs: Jobs): CommandGroup<JobsCommand> {
  return {
    handlers: {
      'jobs.run': async (input) => jobs.run(input),
      'jobs.list': async ({ instanceId }) => jobs.refresh(instanceId),
      'jobs.open': async ({ jobId }) => jobs.open(jobId),
      'jobs.remove': async ({ jobId }) => jobs.remove(jobId)
    }
  }
}
