import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { recordedProblems } from '../testing/save-problems'
import { JobStore, type JobRecord } from './job-store'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

const record: JobRecord = {
  jobId: 'job001',
  account: 'sandbox/demo',
  instanceId: 'i-1',
  instanceName: 'trainer',
  command: 'python train.py',
  folder: '~',
  stopWhenDone: false,
  state: 'running',
  startedAt: 1,
  lastLines: [],
  sessionAlive: true,
  reported: false
}

describe('the jobs file', () => {
  it('a write the disk refuses keeps the job in memory and is told, naming the file; the next that works is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudtray-jobs-'))
    folders.push(dir)
    const { problems, failures } = recordedProblems()
    const store = new JobStore(dir, problems)
    // A folder where jobs.json goes: the write fails even for root, as a full disk would.
    mkdirSync(join(dir, 'jobs.json'))
    await store.put(record)
    expect(failures).toEqual([`${join(dir, 'jobs.json')}: your jobs`])
    expect(store.all()).toEqual([record])

    rmSync(join(dir, 'jobs.json'), { recursive: true })
    await store.put({ ...record, state: 'finished' })
    const again = new JobStore(dir, problems)
    await again.load()
    expect(again.all().map((job) => job.state)).toEqual(['finished'])
  })
})
