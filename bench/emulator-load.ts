/**
 * The emulator under load: a bounded autocannon run of authenticated `/instance/list` pages on
 * loopback. Every answer is parsed with the API's own schema and checked (page size, total); the
 * run fails on any error, timeout, non-2xx or wrong body, and the emulator must answer a full
 * list correctly afterwards.
 *
 * Reference, measured in the same run: a bare node:http server on loopback answering the same
 * bytes (what this machine and autocannon can do at all). The ratio is emulator / reference.
 *
 * The emulator keeps its state in a file, as the app's Sandbox does, so every answer goes
 * through the "on disk before answered" path (#12 item 10). A second figure shows what that
 * durability costs where it does work: a burst of concurrent creates with a state file (each
 * answered only after fsync) against the same burst in memory; coalesced writes keep it cheap.
 *
 *   npx tsx bench/emulator-load.ts [seconds=5] [connections=8]
 */
import { createServer } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import autocannon from 'autocannon'
import { ListInstancesResponseSchema, LoginResultSchema } from '../src/shared/api'
import { startEmulator } from '../src/emulator/index'
import { validCreate } from '../src/emulator/testing/http-client'
import { createCloudClient } from '../src/main/cloud/client'

const INSTANCES = 200
const PAGE_SIZE = 50
/** The emulator builds, pages and serialises per request: a tenth of a static server is plenty for a test double. */
export const TARGET_RATIO = 0.1
/** Durable creates (fsync before each answer, writes shared) against in-memory ones. */
export const DURABLE_CREATE_TARGET = 0.1
const CREATE_BURST = 100

export interface LoadRun {
  requests: number
  perSecond: number
  errors: number
  timeouts: number
  non2xx: number
  mismatches: number
}

export interface EmulatorLoadReport {
  emulator: LoadRun
  reference: LoadRun
  ratio: number
  /** After the run: a full list through the real client returned every seeded instance. */
  answersAfterwards: boolean
  /** Creates per second of a concurrent burst: with a state file, in memory, and their ratio. */
  durableCreates: { durable: number; memory: number; ratio: number }
}

async function cannon(
  url: string,
  options: { seconds: number; connections: number; cookie: string; body: string; verify: (body: string) => boolean }
): Promise<LoadRun> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: options.cookie },
    body: options.body,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    verifyBody: options.verify
  })
  return {
    requests: result.requests.total,
    perSecond: result.requests.average,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    mismatches: result.mismatches ?? 0
  }
}

/** Creates per second for a burst of CREATE_BURST concurrent creates against a fresh emulator. */
async function createBurst(statePath: string | undefined): Promise<number> {
  const emulator = await startEmulator({ port: 0, ...(statePath ? { statePath } : {}) })
  try {
    const login = await fetch(`${emulator.baseUrl}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'demo' })
    })
    const cookie = `AccessToken=${LoginResultSchema.parse(await login.json()).accessToken}`
    const body = (n: number): string => JSON.stringify(validCreate({ name: `burst-${n}` }))
    const started = performance.now()
    const answers = await Promise.all(
      Array.from({ length: CREATE_BURST }, (_, n) =>
        fetch(`${emulator.baseUrl}/instance/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: body(n)
        })
      )
    )
    const seconds = (performance.now() - started) / 1000
    if (answers.some((answer) => answer.status !== 200)) throw new Error('a create in the burst failed')
    return CREATE_BURST / seconds
  } finally {
    await emulator.close()
  }
}

export async function runEmulatorLoad(options: { seconds: number; connections: number }): Promise<EmulatorLoadReport> {
  const stateDir = await mkdtemp(join(tmpdir(), 'emulator-load-'))
  const emulator = await startEmulator({ port: 0, statePath: join(stateDir, 'state.json') })
  const reference = createServer()
  try {
    await emulator.control.seedInstances('demo', INSTANCES)
    const login = await fetch(`${emulator.baseUrl}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'demo' })
    })
    const { accessToken } = LoginResultSchema.parse(await login.json())
    const cookie = `AccessToken=${accessToken}`
    const body = JSON.stringify({ pager: { currentPage: 2, pageSize: PAGE_SIZE } })
    const verify = (text: string): boolean => {
      try {
        const page = ListInstancesResponseSchema.parse(JSON.parse(text))
        return page.instances.length === PAGE_SIZE && page.pager.totalEntries === INSTANCES && page.pager.currentPage === 2
      } catch {
        return false
      }
    }

    // The same bytes the emulator answers, served with no work at all.
    const sample = await fetch(`${emulator.baseUrl}/instance/list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body
    })
    const sampleText = await sample.text()
    if (!verify(sampleText)) throw new Error('the emulator did not answer a list page correctly before the run')
    reference.on('request', (request, response) => {
      request.resume()
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(sampleText))
    })
    await new Promise<void>((done) => reference.listen(0, '127.0.0.1', done))
    const referenceUrl = `http://127.0.0.1:${(reference.address() as AddressInfo).port}/api/instance/list`

    // One unmeasured second each first: JIT, schema compilation and connection set-up otherwise
    // land on whichever runs first.
    const emulatorUrl = `${emulator.baseUrl}/instance/list`
    await cannon(referenceUrl, { ...options, seconds: 1, cookie, body, verify })
    await cannon(emulatorUrl, { ...options, seconds: 1, cookie, body, verify })
    const referenceRun = await cannon(referenceUrl, { ...options, cookie, body, verify })
    const emulatorRun = await cannon(emulatorUrl, { ...options, cookie, body, verify })

    const client = createCloudClient({ baseUrl: emulator.baseUrl, token: () => accessToken })
    let answersAfterwards = false
    try {
      const { instances: all } = await client.listAllInstances()
      answersAfterwards = new Set(all.map((i) => i.instanceMetadata.instanceId)).size === INSTANCES
    } finally {
      await client.close?.()
    }
    await createBurst(undefined) // warm-up
    const memory = await createBurst(undefined)
    const durable = await createBurst(join(stateDir, 'burst.json'))
    return {
      emulator: emulatorRun,
      reference: referenceRun,
      ratio: referenceRun.perSecond > 0 ? emulatorRun.perSecond / referenceRun.perSecond : 0,
      answersAfterwards,
      durableCreates: { durable, memory, ratio: memory > 0 ? durable / memory : 0 }
    }
  } finally {
    await new Promise<void>((done) => reference.close(() => done()))
    reference.closeAllConnections?.()
    await emulator.close()
    await rm(stateDir, { recursive: true, force: true })
  }
}

export function loadProblems(report: EmulatorLoadReport, targetRatio = TARGET_RATIO): string[] {
  const problems: string[] = []
  const run = report.emulator
  if (run.requests === 0) problems.push('no request completed')
  if (run.errors > 0) problems.push(`${run.errors} connection errors`)
  if (run.timeouts > 0) problems.push(`${run.timeouts} timeouts`)
  if (run.non2xx > 0) problems.push(`${run.non2xx} answers were not 2xx`)
  if (run.mismatches > 0) problems.push(`${run.mismatches} answers had the wrong body`)
  if (!report.answersAfterwards) problems.push('the emulator did not list every instance correctly after the run')
  if (report.ratio < targetRatio) problems.push(`throughput ratio ${report.ratio.toFixed(3)} is below ${targetRatio}`)
  if (report.durableCreates.ratio < DURABLE_CREATE_TARGET) {
    problems.push(`durable creates ran at ${report.durableCreates.ratio.toFixed(3)} of in-memory ones, below ${DURABLE_CREATE_TARGET}`)
  }
  return problems
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const seconds = Number(process.argv[2] ?? 5)
  const connections = Number(process.argv[3] ?? 8)
  const report = await runEmulatorLoad({ seconds, connections })
  const line = (name: string, run: LoadRun): string =>
    `${name.padEnd(10)} ${run.perSecond.toFixed(0).padStart(7)} req/s  ${run.requests} requests, ` +
    `${run.errors} errors, ${run.timeouts} timeouts, ${run.non2xx} non-2xx, ${run.mismatches} wrong bodies`
  console.log(`autocannon: ${connections} connections × ${seconds} s, /instance/list page of ${PAGE_SIZE} (of ${INSTANCES})`)
  console.log(line('reference', report.reference))
  console.log(line('emulator', report.emulator))
  console.log(
    `ratio emulator/reference: ${report.ratio.toFixed(3)} (target ≥ ${TARGET_RATIO}); full list afterwards: ${report.answersAfterwards ? 'correct' : 'WRONG'}`
  )
  const burst = report.durableCreates
  console.log(
    `${CREATE_BURST} concurrent creates: ${burst.durable.toFixed(0)}/s on disk before each answer, ${burst.memory.toFixed(0)}/s in memory; ` +
      `ratio ${burst.ratio.toFixed(3)} (target ≥ ${DURABLE_CREATE_TARGET})`
  )
  const problems = loadProblems(report)
  for (const problem of problems) console.log(`FAIL: ${problem}`)
  process.exitCode = problems.length > 0 ? 1 : 0
}
