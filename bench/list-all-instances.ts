/**
 * listAllInstances (50 per page, pages after the first fetched 4 at a time) against one request
 * for all 1000 instances, in the same run against the same emulator on loopback.
 *
 *   npx tsx bench/list-all-instances.ts
 *
 * The reference is the cheapest possible way to get the whole list (one answer), so the ratio is
 * the price of paging: per-request overhead (HTTP, auth, JSON framing) that concurrency must hide.
 * The emulator runs in its own process, as the cloud runs on another machine: in one process the
 * server's and the client's work would share a thread and concurrency could hide nothing.
 * Target: ratio ≤ 2.0 (median of the per-round ratios). Exits 1 when missed.
 */
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { createCloudClient } from '../src/main/cloud'

const INSTANCES = 1000
const PAGE_SIZE = 50
const WARMUP_ROUNDS = 5
const ROUNDS = 21
const TARGET_RATIO = 2.0

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

const emulator = fork(fileURLToPath(new URL('./list-all-instances-emulator.ts', import.meta.url)), [String(INSTANCES)], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc']
})
const baseUrl = await new Promise<string>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('the emulator did not start within 60 s')), 60_000)
  emulator.once('message', (message) => {
    clearTimeout(timer)
    resolve((message as { baseUrl: string }).baseUrl)
  })
  emulator.once('exit', (code) => reject(new Error(`the emulator exited early (code ${code})`)))
})
let token: string | undefined
const client = createCloudClient({ baseUrl, token: () => token })
let exitCode = 0
try {
  token = (await client.login({ username: 'demo', password: 'demo' })).accessToken

  const paged = () => client.listAllInstances({ pageSize: PAGE_SIZE })
  const single = () => client.listInstances({ currentPage: 1, pageSize: INSTANCES })

  // Both ways must see the same list, or the comparison means nothing.
  const [all, one] = await Promise.all([paged(), single()])
  const pagedIds = all.instances.map((instance) => instance.instanceMetadata.instanceId)
  const singleIds = one.instances.map((instance) => instance.instanceMetadata.instanceId)
  if (pagedIds.length !== INSTANCES || pagedIds.join() !== singleIds.join()) {
    throw new Error(`paged list (${pagedIds.length}) differs from the single answer (${singleIds.length})`)
  }

  for (let round = 0; round < WARMUP_ROUNDS; round++) {
    await paged()
    await single()
  }
  // Paired and interleaved: each round times both ways back to back (alternating which goes
  // first), and the ratio is the median of the per-round ratios, so load from other processes
  // that comes and goes during the run hits both sides of each ratio alike.
  const pagedMs: number[] = []
  const singleMs: number[] = []
  const ratios: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    let pagedTime: number
    let singleTime: number
    if (round % 2 === 0) {
      pagedTime = await time(paged)
      singleTime = await time(single)
    } else {
      singleTime = await time(single)
      pagedTime = await time(paged)
    }
    pagedMs.push(pagedTime)
    singleMs.push(singleTime)
    ratios.push(pagedTime / singleTime)
  }

  const pagedMedian = median(pagedMs)
  const singleMedian = median(singleMs)
  const ratio = median(ratios)
  const pages = Math.ceil(INSTANCES / PAGE_SIZE)
  console.log(`list-all-instances: ${INSTANCES} instances, median of ${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up`)
  console.log(`  listAllInstances (${pages} pages of ${PAGE_SIZE}, 4 at a time): ${pagedMedian.toFixed(1)} ms`)
  console.log(`  reference: one listInstances (pageSize ${INSTANCES}):      ${singleMedian.toFixed(1)} ms`)
  console.log(
    `  ratio (median of per-round ratios): ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO.toFixed(1)}) ${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'}`
  )
  if (!(ratio <= TARGET_RATIO)) exitCode = 1
} catch (error) {
  console.error(`list-all-instances: ${(error as Error).message}`)
  exitCode = 1
} finally {
  await client.close()
  emulator.disconnect()
}
process.exit(exitCode)
