/**
 * The account's jobs (Run a job…), as main last told them: the `jobs` event carries the whole
 * list whenever one starts, ends or is removed; `refresh` asks main to read an instance's jobs
 * again from the instance (their last lines and whether their session is still there).
 */
import type { JobView, RunJobInput } from '../../../shared/contract-jobs'
import { call, on } from '../lib/bridge'
import type { Result } from '../../../shared/errors'

class JobsStore {
  all = $state.raw<JobView[]>([])
  private listening = false

  listen(): void {
    if (this.listening) return
    this.listening = true
    on('jobs', (jobs) => {
      this.all = jobs
    })
  }

  of(instanceId: string): JobView[] {
    return this.all.filter((job) => job.instanceId === instanceId).sort((a, b) => b.startedAt - a.startedAt)
  }

  /** Reads the instance's jobs again; answers a problem in the user's words, or null. */
  async refresh(instanceId: string): Promise<string | null> {
    this.listen()
    const result = await call('jobs.list', { instanceId })
    if (!result.ok) return result.error.message
    this.all = [...this.all.filter((job) => job.instanceId !== instanceId), ...result.value]
    return null
  }

  async run(input: RunJobInput): Promise<Result<JobView>> {
    this.listen()
    const result = await call('jobs.run', input)
    if (result.ok) this.all = [...this.all.filter((job) => job.jobId !== result.value.jobId), result.value]
    return result
  }

  async remove(jobId: string): Promise<Result<void>> {
    const result = await call('jobs.remove', { jobId })
    if (result.ok) this.all = this.all.filter((job) => job.jobId !== jobId)
    return result
  }
}

export const jobs = new JobsStore()
