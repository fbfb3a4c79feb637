/**
 * Start-up: from starting the web shell's process, with a remembered session, until the page
 * shows the instance list painted; against the floor, the same built page served by a process
 * that does nothing else, from its start until the page has loaded and painted a frame (no data,
 * no socket). Both are Node processes started the same way (tsx), so loading TypeScript costs
 * both; what the ratio shows is the app's own start: the core's modules, the session restored
 * from the keychain, the first poll, the socket, the mirrors' reads and the list's first render.
 *
 * The remembered session is made once, before the runs, by a process that signs in with
 * "remember me" to the emulator in this process (20 instances) and leaves its data folder and
 * its keychain entries behind; each timed process reads the entries into its in-memory keychain
 * (a bench stand-in for the OS keychain, which a test machine may not have). Runs alternate
 * app and floor, 5 each (`--runs N`); medians are compared. Target: ratio ≤ 2.0.
 *
 *   npx tsx bench/startup.ts [--runs 5]
 */
import './plays-main'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium, type Browser } from '@playwright/test'
import { chromiumArgs, chromiumExecutable } from '../e2e/chromium'

const TARGET_RATIO = 2
const INSTANCES = 20
const { values } = parseArgs({
  options: {
    role: { type: 'string' },
    runs: { type: 'string', default: '5' },
    'data-dir': { type: 'string' },
    'base-url': { type: 'string' },
    'renderer-dir': { type: 'string' }
  }
})

/** The keychain's entries, as the setup process left them. */
const KEYCHAIN_FILE = 'bench-keychain.json'

/** A child process's roles: print `READY <url>` once a page can be opened. */
async function child(role: string): Promise<void> {
  const dataDir = values['data-dir'] ?? ''
  const rendererDir = values['renderer-dir'] ?? ''
  if (role === 'floor') {
    const { serveStatic } = await import('../src/web/static-files')
    const server = createServer((request, response) => void serveStatic(rendererDir, request, response))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    return
  }
  const { createMemoryKeychain } = await import('../src/main/account/keychain')
  const { startWebShell } = await import('../src/web/server')
  const keychain = createMemoryKeychain()
  if (role === 'app') {
    const saved = JSON.parse(await readFile(join(dataDir, KEYCHAIN_FILE), 'utf8')) as [string, string][]
    for (const [key, value] of saved) keychain.entries.set(key, value)
  }
  const shell = await startWebShell({ dataDir, keychain, baseUrl: values['base-url'] ?? '', rendererDir })
  if (role === 'setup') {
    const client = { clientId: 'bench-setup' }
    const login = await shell.core.handle(
      'session.login',
      { profileId: 'sandbox', username: 'demo', password: 'demo', rememberMe: true },
      client
    )
    if (!login.ok) throw new Error(`login failed: ${login.error.message}`)
    await writeFile(join(dataDir, KEYCHAIN_FILE), JSON.stringify([...keychain.entries]))
    await shell.close()
    console.log('READY done')
    return
  }
  console.log(`READY ${shell.url}`)
}

/** Starts a child with `role`; answers when it was started and the URL it printed. */
async function start(role: string, args: string[]): Promise<{ process: ChildProcess; startedAt: number; url: string }> {
  const startedAt = performance.now()
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--role', role, ...args], {
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    proc.stdout!.setEncoding('utf8').on('data', (text: string) => {
      out += text
      const ready = /READY (\S+)/.exec(out)
      if (ready) resolve(ready[1]!)
    })
    proc.on('close', (code) => reject(new Error(`${role} exited (${String(code)}) before it was ready: ${out}`)))
  })
  return { process: proc, startedAt, url }
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return
  const closed = new Promise((resolve) => proc.once('close', resolve))
  proc.kill('SIGTERM')
  await closed
}

/** The page script that resolves once the instance table has its rows and a frame painted them. */
const LIST_PAINTED = `new Promise((resolve) => {
  const check = () => {
    const table = document.querySelector('[role="table"][aria-label="Instances"]')
    if (table && table.getAttribute('aria-rowcount') === '${INSTANCES + 1}' && table.querySelectorAll('[role="row"]').length > 1)
      requestAnimationFrame(() => setTimeout(resolve, 0))
    else setTimeout(check, 2)
  }
  check()
})`

/** One run: ms from the process's start until the page shows what `painted` waits for. */
async function timedRun(browser: Browser, role: 'app' | 'floor', args: string[], painted: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  const run = await start(role, args)
  try {
    await page.goto(run.url, { waitUntil: 'load' })
    await page.evaluate(painted)
    return performance.now() - run.startedAt
  } finally {
    await page.close()
    await stop(run.process)
  }
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

async function main(): Promise<number> {
  const runs = Math.max(1, Math.min(20, Number(values.runs) || 5))
  const { REPO_ROOT, ensureRendererBuild } = await import('../src/web/renderer-build')
  const { dir: rendererDir } = await ensureRendererBuild(REPO_ROOT, (line) => console.error(line))
  const { startEmulator } = await import('../src/emulator/index')
  const emulator = await startEmulator({ port: 0, bootMs: 0 })
  const dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-startup-'))
  const browser = await chromium.launch({ ...(chromiumExecutable ? { executablePath: chromiumExecutable } : {}), args: chromiumArgs })
  try {
    await emulator.control.seedInstances('demo', INSTANCES)
    const args = ['--data-dir', dataDir, '--base-url', emulator.baseUrl, '--renderer-dir', rendererDir]
    const setup = await start('setup', args)
    await new Promise((resolve) => setup.process.once('close', resolve))

    // One warm-up of each (the file cache), then alternate so a neighbour's load hits both alike.
    const app: number[] = []
    const floor: number[] = []
    for (let i = 0; i <= runs; i++) {
      const appMs = await timedRun(browser, 'app', args, LIST_PAINTED)
      const floorMs = await timedRun(
        browser,
        'floor',
        args,
        'new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))'
      )
      if (i === 0) continue
      app.push(appMs)
      floor.push(floorMs)
    }
    const ratio = median(app) / median(floor)
    const list = (samples: number[]): string => samples.map((ms) => ms.toFixed(0)).join(', ')
    console.log(`startup: web shell with a remembered session (${INSTANCES} instances), median of ${runs}, from process start`)
    console.log(`  floor, the same built page from a bare static server: ${median(floor).toFixed(0)} ms (${list(floor)})`)
    console.log(`  the app, to the instance list painted:               ${median(app).toFixed(0)} ms (${list(app)})`)
    console.log(`  startup ratio app/floor: ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}) ${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'}`)
    return ratio <= TARGET_RATIO ? 0 : 1
  } finally {
    await browser.close()
    await emulator.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

if (values.role) {
  child(values.role).catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
} else {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    }
  )
}
