/**
 * Terminal output into xterm.js in headless Chromium, through the real chain: the instance's
 * SSH server (OpenSSH when installed, see remoteSshServer) catting a file of lines (`floodOf`
 * says why a file) → the app's SSH module in
 * `npm run web`'s core → the web shell's transport (acks up the WebSocket, output down the
 * streamed downlink) → the renderer's TerminalTab → xterm. The rate is what xterm acknowledges
 * as parsed (`ssh.ack`, counted where the core receives it), from the first byte sent to the
 * last byte acknowledged.
 * The target is the ratio to xterm alone in the same Chromium (the prebuilt xterm.js, at the app
 * terminal's size, font and renderer, fed the same text in 64 KiB writes, 256 KiB in flight, no
 * transport): the ceiling of this browser on this machine. The app's floods and xterm alone's
 * alternate (ROUNDS each), so a neighbour's load on this shared machine hurts both alike; the
 * ratio is of their total rates. Other references, reported: the same chain with a consumer that
 * acknowledges at once in Node (no browser): what the source and the app's data path can deliver
 * at all; and the same chain into the page with the terminal hidden: everything but drawing.
 * And the downlink's own worth: the same floods into a second page whose downlink request is
 * refused (so main's messages come back on the WebSocket, as they would without it), alternated
 * with floods into the first page, printed as a ratio.
 *
 * Also: Ctrl-C during a `yes` flood, five times — from the key press in the page until xterm has
 * parsed the echoed ^C (everything queued before it had to be parsed first). Checks the ratio
 * ≥ 0.8 (an absolute MB/s says more about the machine than the app), and ≤ 100 ms for the
 * slowest of the five Ctrl-Cs.
 * And, from a trace of a separate flood, where the page's main thread went: frames, xterm's
 * parse slices, the rest, idle; and what xterm parses per slice (the bytes per ack; flow
 * control, src/main/ssh/data-path/flow-control.ts, resumes after half its window is parsed).
 *
 *   npx tsx bench/xterm-throughput.ts [--mib 64]
 */
import './plays-main'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { quote } from 'shlex'
import type { EventName, Events, NoticeName } from '../src/shared/contract'
import type { ClientContext } from '../src/main/core-types'
import type { WebShell } from '../src/web/server'
import { traceMainThread } from './renderer-main-thread'
import { highest } from '../src/shared/extremes'
import {
  SHOWN_TERMINAL_INPUT,
  openTerminal,
  percentile,
  startTerminalRig,
  typeLine,
  until,
  xtermAlonePage,
  type PageTerminal
} from './terminal-rig'

const TARGET_RATIO = 0.8
const TARGET_CTRL_C_MS = 100
const CTRL_C_TRIES = 5
/**
 * App and xterm-alone floods, alternated. Five each: on this 2-core machine one flood's rate
 * varies up to 2× from the next (xterm alone's as much as the app's), and with two each a run's
 * ratio rested on a couple of lucky or unlucky floods. Runs still differ with the machine's
 * state: four runs of five gave 0.77–0.99 on 2026-11-27, lowest when xterm alone ran fastest.
 */
const ROUNDS = 5
const mibArg = process.argv.indexOf('--mib')
const MIB = mibArg > 0 ? Number(process.argv[mibArg + 1]) : 32
const BYTES = MIB * 1024 * 1024
const PROFILE_BYTES = 16 * 1024 * 1024
/** Each flood's line: what xterm alone is fed, once the PTY has turned the \n into \r\n. */
const FLOOD_LINE = 'the quick brown fox jumps over the lazy dog 0123456789\n'

/**
 * A flood's source on the instance: `cat` of a file of its lines, written before the run. The
 * instance (sshd, the source, the kernel's PTY work) shares this machine's two cores with the app
 * and the browser, where in real use it is another machine; a per-process sample of floods here
 * gave the browser's renderer 76 % of a core and the app's main 28 %, while `yes | head -c`, the
 * source before, took 29 %, sshd 20 % and the kernel's PTY workers 14 %: a third of the machine
 * that xterm alone, the reference, has to itself. `cat` is one process and no pipe. Alternated in
 * three runs each (2026-11-27, 2226183): ratio 0.89, 0.83, 0.80 with `cat`, 0.76, 0.80, 0.75 with
 * `yes | head -c`. The bytes are the same.
 */
const floodFiles = mkdtempSync(join(tmpdir(), 'cloudtray-xterm-floods-'))
// On every way out, a failed start included: the files are tens of MiB.
process.on('exit', () => rmSync(floodFiles, { recursive: true, force: true }))
const floodCommands = new Map<number, string>()
const floodOf = (bytes: number): string => {
  let command = floodCommands.get(bytes)
  if (!command) {
    const path = join(floodFiles, String(bytes))
    writeFileSync(path, FLOOD_LINE.repeat(Math.ceil(bytes / FLOOD_LINE.length)).slice(0, bytes))
    // Typed into a shell: a temp folder's name may hold anything a user's TMPDIR does.
    command = `cat ${quote(path)}`
    floodCommands.set(bytes, command)
  }
  return command
}
const FLOOD = floodOf(BYTES)
const PROFILE_FLOOD = floodOf(PROFILE_BYTES)

/** Counts, where the core sees them, bytes sent to terminals and bytes acknowledged back. */
class CoreMeter {
  sent = 0
  acked = 0
  /** Ack messages: one per parse slice of xterm's (parsed-acks.ts). */
  acks = 0
  /** The most that was ever sent and not yet acknowledged: flow control's window at its widest. */
  mostInFlight = 0
  /** Batches sent and not yet acknowledged: [total sent including it, when]. */
  private unackedBatches: [number, number][] = []
  /** From a batch leaving main to xterm's ack covering it, ms. */
  latencies: number[] = []
  firstSentAt: number | undefined
  /** The page's terminal and connection, from its last ack: to type into it while it is hidden. */
  page: { terminalId: string; context: ClientContext } | undefined
  /** Called with each data batch and the total sent including it. */
  onData: ((data: Uint8Array, totalAfter: number) => void) | undefined

  constructor(shell: WebShell) {
    const core = shell.core
    const notice = core.notice.bind(core)
    // Wrap the core's entry point for notices (the transport calls core.notice per ack): a bench-only tap.
    core.notice = ((name: NoticeName, input: unknown, context: ClientContext) => {
      if (name === 'ssh.ack') {
        const ack = input as { terminalId: string; bytes: number }
        this.acked += ack.bytes
        this.acks++
        const now = performance.now()
        while (this.unackedBatches.length > 0 && this.unackedBatches[0]![0] <= this.acked) {
          this.latencies.push(now - this.unackedBatches.shift()![1])
        }
        this.page = { terminalId: ack.terminalId, context }
      }
      notice(name, input, context)
    }) as typeof core.notice
    core.subscribe(<E extends EventName>(event: E, payload: Events[E]) => {
      if (event !== 'ssh.data') return
      const data = (payload as Events['ssh.data']).data
      this.firstSentAt ??= performance.now()
      this.sent += data.length
      this.mostInFlight = Math.max(this.mostInFlight, this.sent - this.acked)
      this.unackedBatches.push([this.sent, performance.now()])
      this.onData?.(data, this.sent)
    })
  }

  reset(): void {
    this.sent = 0
    this.acked = 0
    this.acks = 0
    this.mostInFlight = 0
    this.unackedBatches = []
    this.latencies = []
    this.firstSentAt = undefined
  }
}

/** The same flood with a consumer in Node that acknowledges every batch at once. */
async function nodeReference(shell: WebShell, instanceId: string): Promise<number> {
  const client = { clientId: 'bench-node' }
  let terminalId = ''
  let received = 0
  let firstAt: number | undefined
  const off = shell.core.subscribe(<E extends EventName>(event: E, payload: Events[E], target?: string) => {
    if (target !== client.clientId) return
    if (event === 'ssh.prompt') {
      const promptId = (payload as Events['ssh.prompt']).promptId
      void shell.core.handle('ssh.answer', { promptId, answer: { kind: 'host-key', decision: 'accept-once' } }, client)
    } else if (event === 'ssh.data') {
      const bytes = (payload as Events['ssh.data']).data.length
      firstAt ??= performance.now()
      received += bytes
      shell.core.notice('ssh.ack', { terminalId, bytes }, client)
    }
  })
  try {
    const opened = await shell.core.handle('ssh.open', { instanceId, cols: 128, rows: 34 }, client)
    if (!opened.ok) throw new Error(opened.error.message)
    terminalId = opened.value.terminalId
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    received = 0
    firstAt = undefined
    shell.core.notice('ssh.input', { terminalId, data: `${FLOOD}\n` }, client)
    await until(() => received >= BYTES, 'the Node reference flood', 600_000)
    const mbps = received / 1e6 / ((performance.now() - (firstAt ?? 0)) / 1000)
    await shell.core.handle('ssh.close', { terminalId }, client)
    return mbps
  } finally {
    off()
  }
}

/**
 * The same chain with the terminal hidden: xterm still parses and acknowledges every byte but
 * draws no frame (its renderer pauses while the element is not displayed). Its gap to the drawn
 * run is what frames cost; below the target, the chain itself falls short on this machine even
 * with frames free (page timelines showed Chromium, Node, sshd and the shell sharing 2 cores).
 */
async function undrawnReference(page: Page, shell: WebShell, meter: CoreMeter): Promise<number> {
  const target = meter.page
  if (!target) throw new Error('the page never acknowledged anything')
  await page.evaluate(`document.querySelector('.xterm-host').style.display = 'none'`)
  try {
    await new Promise((resolve) => setTimeout(resolve, 300))
    meter.reset()
    // Typed through the core: a hidden terminal cannot take the keyboard.
    shell.core.notice('ssh.input', { terminalId: target.terminalId, data: `${PROFILE_FLOOD}\n` }, target.context)
    await until(() => meter.acked >= PROFILE_BYTES, 'the undrawn flood', 600_000)
    return meter.acked / 1e6 / ((performance.now() - (meter.firstSentAt ?? 0)) / 1000)
  } finally {
    await page.evaluate(`document.querySelector('.xterm-host').style.display = ''`)
  }
}

/**
 * One flood into `page`'s terminal: MB/s from the first byte sent to the last acknowledged. The
 * clock starts at Enter: the command line is typed and echoed first. (It used to start with the
 * echo of the command's first letter, so typing 80 characters through the terminal, 0.1–0.25 s,
 * was counted as flood time against xterm alone, whose clock starts at its first write.)
 */
async function floodInto(page: Page, meter: CoreMeter, bytes: number): Promise<number> {
  await page.bringToFront()
  await new Promise((resolve) => setTimeout(resolve, 500))
  const command = floodOf(bytes)
  meter.reset()
  await page.locator(SHOWN_TERMINAL_INPUT).first().focus()
  await page.keyboard.type(command)
  await until(() => meter.sent >= command.length && meter.acked >= meter.sent, 'the command line echoed and parsed', 30_000)
  meter.reset()
  await page.keyboard.press('Enter')
  await until(() => meter.acked >= bytes, `${bytes} bytes acknowledged`, 600_000)
  return meter.acked / 1e6 / ((performance.now() - (meter.firstSentAt ?? 0)) / 1000)
}

/**
 * The downlink against no downlink, in this run: a second page whose downlink request fails gets
 * main's messages on its WebSocket, as every page would without src/shared/web/downlink.ts.
 * Floods alternate between the two pages, so a noisy neighbour hurts both alike.
 */
async function downlinkReference(
  browser: Browser,
  shell: WebShell,
  meter: CoreMeter,
  page: Page
): Promise<{ socket: number[]; downlink: number[] }> {
  const socketPage = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  let refused = 0
  await socketPage.route('**/ws/downlink', (route) => {
    refused++
    return route.abort()
  })
  try {
    await openTerminal(socketPage, shell, true)
    if (refused === 0) throw new Error('the socket-only page never asked for a downlink')
    const result = { socket: [] as number[], downlink: [] as number[] }
    for (let i = 0; i < 2; i++) {
      result.socket.push(await floodInto(socketPage, meter, PROFILE_BYTES))
      result.downlink.push(await floodInto(page, meter, PROFILE_BYTES))
    }
    return result
  } finally {
    await socketPage.close()
    await page.bringToFront()
  }
}

/** In the page of xtermAlonePage: 64 KiB writes, at most 256 KiB unparsed. */
const XTERM_ALONE = `async (total) => {
  const line = new TextEncoder().encode('the quick brown fox jumps over the lazy dog 0123456789\\r\\n')
  const chunk = new Uint8Array(64 * 1024)
  for (let i = 0; i < chunk.length; i++) chunk[i] = line[i % line.length]
  let sent = 0
  let done = 0
  const started = performance.now()
  await new Promise((resolve) => {
    const pump = () => {
      while (sent < total && sent - done < 256 * 1024) {
        sent += chunk.length
        term.write(chunk, () => {
          done += chunk.length
          if (done >= total) resolve()
          else pump()
        })
      }
    }
    pump()
  })
  return total / 1e6 / ((performance.now() - started) / 1000)
}`

/** xterm.js alone in a blank page of the same browser: parse + render, no app around it. */
async function xtermAlone(browser: Browser, size: PageTerminal, bytes: number): Promise<number> {
  const page = await xtermAlonePage(browser, size)
  try {
    return (await page.evaluate(`(${XTERM_ALONE})(${bytes})`)) as number
  } finally {
    await page.close()
  }
}

/** From pressing Ctrl-C one second into a `yes` flood until xterm has parsed the echoed ^C. */
async function ctrlCDuringFlood(page: Page, meter: CoreMeter): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 500))
  await typeLine(page, 'yes')
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  let pressedAt = 0
  let echoEndsAt = 0
  // The PTY may write the echo's "^" and "C" apart, so a batch can end between them.
  let endedWithCaret = false
  meter.onData = (data, totalAfter) => {
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    const echoed = bytes.includes('^C') || (endedWithCaret && bytes[0] === 0x43)
    endedWithCaret = bytes.at(-1) === 0x5e
    if (pressedAt > 0 && echoEndsAt === 0 && echoed) echoEndsAt = totalAfter
  }
  // Ctrl is held first, as a hand does, and the clock starts at the C: that key types the
  // interrupt. (Playwright's 'Control+C' also waited for the busy page to take the Ctrl key down
  // before it sent the C, and counted that wait.)
  await page.keyboard.down('Control')
  try {
    pressedAt = performance.now()
    await page.keyboard.press('KeyC')
    await page.keyboard.up('Control')
    await until(() => echoEndsAt > 0 && meter.acked >= echoEndsAt, 'xterm to parse the ^C echo', 10_000)
    return performance.now() - pressedAt
  } finally {
    meter.onData = undefined
  }
}

async function main(): Promise<number> {
  const rig = await startTerminalRig()
  const { shell, browser, instanceId } = rig
  const meter = new CoreMeter(shell)
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const terminal = await openTerminal(page, shell)

    // 1. Throughput, alternated with xterm alone: from the first byte sent to the last byte xterm acknowledged.
    // One flood each way first, untimed: a session's first flood teaches flow control xterm's
    // parse speed (its window starts at 256 KiB) and warms both sides' JIT. Without it the first
    // of five timed app floods was the slowest in most runs (28–34 MB/s, the rest ~36; 2026-11-27).
    await floodInto(page, meter, PROFILE_BYTES)
    await xtermAlone(browser, terminal, PROFILE_BYTES)
    const app: number[] = []
    const alone: number[] = []
    let nodeShare = 0
    let slice = 0
    let inFlight = 0
    const latencies: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const cpuBefore = process.cpuUsage()
      const wallBefore = performance.now()
      app.push(await floodInto(page, meter, BYTES))
      const cpu = process.cpuUsage(cpuBefore)
      nodeShare = Math.max(nodeShare, (cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore))
      slice = Math.max(slice, meter.acked / Math.max(1, meter.acks))
      inFlight = Math.max(inFlight, meter.mostInFlight)
      for (const ms of meter.latencies) latencies.push(ms)
      alone.push(await xtermAlone(browser, terminal, BYTES))
    }
    await page.bringToFront()
    const appMbps = ROUNDS / app.reduce((total, mbps) => total + 1 / mbps, 0)
    const aloneMbps = ROUNDS / alone.reduce((total, mbps) => total + 1 / mbps, 0)
    const ratio = appMbps / aloneMbps

    // 2. Ctrl-C during a flood, CTRL_C_TRIES times: until xterm has parsed the echoed ^C.
    const ctrlCTimes: number[] = []
    for (let i = 0; i < CTRL_C_TRIES; i++) ctrlCTimes.push(await ctrlCDuringFlood(page, meter))
    const ctrlCMs = highest(ctrlCTimes) ?? Infinity

    // 3. Where the page's main thread goes during a flood (a separate, traced run: tracing costs).
    await new Promise((resolve) => setTimeout(resolve, 500))
    meter.reset()
    await typeLine(page, PROFILE_FLOOD)
    await until(() => meter.acked >= 2 * 1024 * 1024, 'the traced flood to get going', 60_000)
    const ackedBefore = meter.acked
    const shares = await traceMainThread(browser, page, 1_000)
    const tracedBytes = meter.acked - ackedBefore
    await until(() => meter.acked >= PROFILE_BYTES, 'the traced flood to end', 600_000)

    const undrawnMbps = await undrawnReference(page, shell, meter)
    const transports = await downlinkReference(browser, shell, meter, page)
    const referenceMbps = await nodeReference(shell, instanceId)
    const ok = ratio >= TARGET_RATIO && ctrlCMs <= TARGET_CTRL_C_MS
    const list = (values: number[]): string => values.map((value) => value.toFixed(1)).join(', ')
    console.log(
      `xterm-throughput: ${MIB} MiB of shell output into a ${terminal.cols}×${terminal.rows} xterm (${terminal.renderer} renderer), headless Chromium; remote: ${rig.remoteLabel}, the flood a file it cats`
    )
    console.log(
      `  reference, xterm alone in this browser: ${aloneMbps.toFixed(1)} MB/s (${list(alone)}; ${terminal.renderer} renderer, as the app's)`
    )
    console.log(`  reference, same chain acked in Node:    ${referenceMbps.toFixed(1)} MB/s`)
    console.log(`  reference, same chain, xterm hidden:    ${undrawnMbps.toFixed(1)} MB/s (parsed, no frames drawn)`)
    console.log(
      `  through the app into xterm:             ${appMbps.toFixed(1)} MB/s (${list(app)}, alternated with xterm alone); ` +
        `ratio to xterm alone ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO})`
    )
    const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0)
    console.log(
      `  downlink vs socket only (${PROFILE_BYTES / 1024 / 1024} MiB floods, alternated): downlink ${list(transports.downlink)} MB/s, ` +
        `socket ${list(transports.socket)} MB/s; ratio ${(sum(transports.downlink) / sum(transports.socket)).toFixed(2)}`
    )
    console.log(
      `  meanwhile the app's main process (${rig.openssh ? "with the emulator's port forwarder" : 'with the emulator and its SSH server'}) used up to ${(nodeShare * 100).toFixed(0)} % of a core`
    )
    const pct = (ms: number): string => `${(ms / 10 / shares.seconds || 0).toFixed(0)} %`
    const idleMs = shares.seconds * 1000 - shares.frameMs - shares.parseMs - shares.otherMs
    const frameMs = shares.frameMs / Math.max(1, shares.frames)
    const parseMbps = tracedBytes / 1e3 / Math.max(1, shares.parseMs)
    console.log(
      `  page main thread in a traced flood:     frames ${(shares.frames / shares.seconds).toFixed(0)}/s at ${frameMs.toFixed(1)} ms (${pct(shares.frameMs)}), ` +
        `xterm parsing ${pct(shares.parseMs)} at ${parseMbps.toFixed(1)} MB/s, other ${pct(shares.otherMs)}, idle ${pct(idleMs)}`
    )
    console.log(
      `    xterm parsed ${(slice / 1024).toFixed(0)} KiB per slice on average (bytes per ack, the better of the app's floods); ` +
        `at most ${(inFlight / 1024).toFixed(0)} KiB in flight to the page; ` +
        `a batch is acknowledged ${percentile(latencies, 0.5).toFixed(0)} ms (median), ${percentile(latencies, 0.9).toFixed(0)} ms (p90) after main sent it`
    )
    console.log(
      `  Ctrl-C during a flood:                  ^C parsed ${ctrlCMs.toFixed(0)} ms after the key press at worst of ${CTRL_C_TRIES} ` +
        `(${ctrlCTimes.map((ms) => ms.toFixed(0)).join(', ')} ms; target ≤ ${TARGET_CTRL_C_MS})`
    )
    console.log(`  ${ok ? 'PASS' : 'FAIL'}`)
    return ok ? 0 : 1
  } finally {
    await rig.close()
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
