/**
 * Typing latency: from a key press until its echo is painted, through the whole app — the page's
 * xterm, the web shell's transport, main's SSH module, OpenSSH's sshd on loopback (when it is
 * installed: see terminal-rig.ts), the remote shell's echo, and back — in headless Chromium.
 * Keys come at a human pace (90–190 ms apart, ~7 a second), 24 letters a line, then Ctrl-U
 * clears the line (nothing runs). Two conditions:
 *   (a) idle: only this tab;
 *   (b) while another tab of the same window floods output (`yes`): its bytes share the page's
 *       main thread and the transport with the echoes.
 * The reference is the floor set by the frame: the same browser with a page of xterm.js alone
 * at the app terminal's size, font and renderer, echoing locally (every key written back to it
 * at once). Targets: p99 ≤ 1.5 × the floor's p99 idle, ≤ 3 × under a flood.
 *
 * How a paint is seen (the same script in both pages): a keydown listener takes the key's
 * timestamp; a MutationObserver on the shown terminal's rows finds the row that ends with the
 * line typed so far (xterm's DOM renderer changes the rows inside the frame it paints), and a
 * task posted from there runs once that frame is done: the time then, minus the key's, is the
 * latency. xterm's WebGL renderer draws on a canvas, which this cannot read: the bench says so.
 *
 *   npx tsx bench/typing-latency.ts [--keys 500]
 */
import './plays-main'
import type { Page } from '@playwright/test'
import type { EventName, Events, NoticeName } from '../src/shared/contract'
import type { ClientContext } from '../src/main/core-types'
import type { WebShell } from '../src/web/server'
import {
  SHOWN_TERMINAL_INPUT,
  connected,
  openTerminal,
  pageTerminal,
  percentile,
  startTerminalRig,
  typeLine,
  until,
  xtermAlonePage
} from './terminal-rig'
import { runBench } from './run-bench'

const TARGET_IDLE = 1.5
const TARGET_FLOOD = 3
const keysArg = process.argv.indexOf('--keys')
const KEYS = keysArg > 0 ? Number(process.argv[keysArg + 1]) : 500
const LINE = 24
const GAP_MS = { min: 90, max: 190 }
const ECHO_TIMEOUT_MS = 5_000

/**
 * Runs in a page: `__typing.watch()` picks the shown terminal's rows, `arm(line)` waits for the
 * next keydown, `result()` answers the ms from that key to the frame that painted `line`'s end.
 */
const PROBE = `(() => {
  const probe = { expect: '', keyAt: 0, armed: false, done: undefined, waiting: undefined, rows: undefined }
  window.addEventListener('keydown', (event) => {
    if (probe.armed && probe.keyAt === 0) probe.keyAt = event.timeStamp
  }, true)
  const finish = (ms) => {
    probe.done = ms
    if (probe.waiting) probe.waiting(ms)
  }
  const observer = new MutationObserver(() => {
    if (!probe.armed || probe.keyAt === 0) return
    for (const row of probe.rows.children) {
      if (!row.textContent.trimEnd().endsWith(probe.expect)) continue
      probe.armed = false
      const keyAt = probe.keyAt
      const rowsAt = performance.now()
      // Inside the frame that changed the rows: a task posted now runs after it has painted.
      const channel = new MessageChannel()
      const readAt = window.__lastReadAt ?? Number.NaN
      channel.port1.onmessage = () => finish([performance.now() - keyAt, performance.timeOrigin + keyAt, performance.now() - rowsAt, rowsAt - readAt])
      channel.port2.postMessage(null)
      return
    }
  })
  window.__typing = {
    watch() {
      const rows = [...document.querySelectorAll('.xterm-rows')].find((element) => element.getClientRects().length > 0)
      if (!rows) throw new Error('no terminal rows are shown (the WebGL renderer draws on a canvas instead)')
      observer.disconnect()
      probe.rows = rows
      observer.observe(rows, { childList: true, subtree: true, characterData: true })
    },
    arm(expect) {
      Object.assign(probe, { expect, keyAt: 0, armed: true, done: undefined, waiting: undefined })
    },
    result(timeoutMs) {
      if (probe.done !== undefined) return probe.done
      return new Promise((resolve, reject) => {
        probe.waiting = resolve
        setTimeout(() => reject(new Error('no echo of "' + probe.expect + '" within ' + timeoutMs + ' ms; rows: ' +
          [...probe.rows.children].map((row) => row.textContent.trimEnd()).filter(Boolean).slice(-3).join(' | '))), timeoutMs)
      })
    }
  }
})()`

/** In the app's page: when its downlink's last read came in (the echo's arrival, for the split). */
const READ_TAP = `(() => {
  const read = ReadableStreamDefaultReader.prototype.read
  ReadableStreamDefaultReader.prototype.read = function () {
    return read.call(this).then((result) => {
      window.__lastReadAt = performance.now()
      return result
    })
  }
})()`

/** The reference page's xterm echoes locally, as a shell would: letters back, Ctrl-U clears the line. */
const LOCAL_ECHO = `(() => {
  term.write('$ ')
  term.onData((data) => term.write(data === '\\x15' ? '\\r\\x1b[K$ ' : data))
})()`

/** A small seeded generator (mulberry32): the same keys and gaps on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Inside main, per key: from its `ssh.input` arriving to the first `ssh.data` for that terminal
 * after it (the echo leaving main). What is left of a latency is the page and the transport.
 */
class MainLeg {
  private inputAt: { terminalId: string; at: number } | undefined
  /** Per key: when its input reached main and when its echo left (epoch ms). */
  readonly legs: { inAt: number; outAt: number }[] = []

  constructor(shell: WebShell) {
    const core = shell.core
    const notice = core.notice.bind(core)
    // A bench-only tap on the core's entry point for notices (the transport calls it per key).
    core.notice = ((name: NoticeName, input: unknown, context: ClientContext) => {
      const typed = input as { terminalId: string; data: string }
      // The bench's letters only (Ctrl-U clears a line between them, and is not measured).
      if (name === 'ssh.input' && /^[a-z]$/.test(typed.data)) this.inputAt = { terminalId: typed.terminalId, at: epochNow() }
      notice(name, input, context)
    }) as typeof core.notice
    core.subscribe(<E extends EventName>(event: E, payload: Events[E]) => {
      if (event !== 'ssh.data' || !this.inputAt || (payload as Events['ssh.data']).terminalId !== this.inputAt.terminalId) return
      this.legs.push({ inAt: this.inputAt.at, outAt: epochNow() })
      this.inputAt = undefined
    })
  }

  take(): { inAt: number; outAt: number }[] {
    return this.legs.splice(0)
  }
}

/** Each key: ms from press to its echo painted, and when it was pressed (the epoch's ms, as Node's `performance.timeOrigin + now()`). */
interface Typed {
  latency: number
  pressedAt: number
  /** From the rows changing (inside the frame) to the task after that frame: the frame's own cost. */
  frame: number
  /** From the page's last downlink read before the rows changed to that change. */
  readToRows: number
}

/** Types KEYS letters into the page's focused terminal at a human pace. */
async function typeKeys(page: Page, textarea: string): Promise<Typed[]> {
  const random = seeded(28)
  await page.evaluate('window.__typing.watch()')
  await page.locator(textarea).first().focus()
  const typed: Typed[] = []
  let line = ''
  let next = performance.now()
  for (let i = 0; i < KEYS; i++) {
    const wait = next - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    next = performance.now() + GAP_MS.min + random() * (GAP_MS.max - GAP_MS.min)
    const key = String.fromCharCode(97 + Math.floor(random() * 26))
    line += key
    await page.evaluate(`window.__typing.arm(${JSON.stringify(line)})`)
    await page.keyboard.press(key)
    const [latency, pressedAt, frame, readToRows] = (await page.evaluate(`window.__typing.result(${ECHO_TIMEOUT_MS})`)) as number[]
    typed.push({ latency: latency!, pressedAt: pressedAt!, frame: frame!, readToRows: readToRows! })
    if (line.length === LINE) {
      await page.keyboard.press('Control+U')
      line = ''
      next += 150
    }
  }
  return typed
}

const epochNow = (): number => performance.timeOrigin + performance.now()

/**
 * Each key's time split into legs: page → main (key press to its input in main), main (to its
 * echo leaving main: the link, sshd, the shell), main → painted. Keys and main's records are
 * matched by order (one input and one echo per key); the clocks are the page's and Node's epoch ms.
 */
function legsOf(
  typed: Typed[],
  legs: { inAt: number; outAt: number }[]
): { toMain: Summary; inMain: Summary; toPaint: Summary; frame: Summary; readToRows: Summary } | undefined {
  if (legs.length !== typed.length) return undefined
  const toMain = typed.map((key, i) => legs[i]!.inAt - key.pressedAt)
  const inMain = legs.map((leg) => leg.outAt - leg.inAt)
  const toPaint = typed.map((key, i) => key.pressedAt + key.latency - legs[i]!.outAt)
  return {
    toMain: summary(toMain),
    inMain: summary(inMain),
    toPaint: summary(toPaint),
    frame: summary(typed.map((key) => key.frame)),
    readToRows: summary(typed.map((key) => key.readToRows))
  }
}

interface Summary {
  p50: number
  p99: number
}

const summary = (latencies: number[]): Summary => ({ p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) })
const ms = (value: number): string => `${value.toFixed(1)} ms`

async function main(): Promise<number> {
  const rig = await startTerminalRig()
  const { shell, browser } = rig
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.addInitScript(READ_TAP)
    const terminal = await openTerminal(page, shell)
    if (terminal.renderer !== 'DOM') {
      console.error(`typing-latency: the app drew with the ${terminal.renderer} renderer; this bench reads the DOM renderer's rows`)
      return 2
    }
    await page.evaluate(PROBE)
    const mainLeg = new MainLeg(shell)

    // The floor: xterm alone, echoing locally, in the same browser.
    const alone = await xtermAlonePage(browser, terminal)
    await alone.evaluate(LOCAL_ECHO)
    await alone.evaluate(PROBE)
    const floorKeys = await typeKeys(alone, '.xterm-helper-textarea')
    const floor = summary(floorKeys.map((key) => key.latency))
    const floorFrame = summary(floorKeys.map((key) => key.frame))
    await alone.close()

    // (a) Idle: this tab only.
    await page.bringToFront()
    const textarea = SHOWN_TERMINAL_INPUT
    mainLeg.take()
    const idleKeys = await typeKeys(page, textarea)
    const idle = summary(idleKeys.map((key) => key.latency))
    const idleLegs = legsOf(idleKeys, mainLeg.take())

    // (b) Another tab of the window floods; this one is shown again and typed into.
    let flooded = 0
    const off = shell.core.subscribe(<E extends EventName>(event: E, payload: Events[E]) => {
      if (event === 'ssh.data') flooded += (payload as Events['ssh.data']).data.length
    })
    await page.getByRole('button', { name: 'New tab' }).click()
    await connected(page)
    await typeLine(page, 'yes')
    await until(() => flooded > 4 * 1024 * 1024, 'the other tab to flood', 60_000)
    await page.getByRole('tablist', { name: 'Terminal tabs' }).getByRole('tab').first().click()
    await pageTerminal(page)
    const floodFrom = { bytes: flooded, at: performance.now() }
    mainLeg.take()
    const floodKeys = await typeKeys(page, textarea)
    const underFlood = summary(floodKeys.map((key) => key.latency))
    const floodLegs = legsOf(floodKeys, mainLeg.take())
    const floodMbps = (flooded - floodFrom.bytes) / 1e6 / ((performance.now() - floodFrom.at) / 1000)
    off()

    const idleRatio = idle.p99 / floor.p99
    const floodRatio = underFlood.p99 / floor.p99
    console.log(
      `typing-latency: ${KEYS} keys at a human pace into a ${terminal.cols}×${terminal.rows} xterm (${terminal.renderer} renderer), ` +
        `headless Chromium; remote: ${rig.remoteLabel}; key press → echo painted`
    )
    console.log(
      `  reference, xterm alone echoing locally (the frame's floor): p50 ${ms(floor.p50)}, p99 ${ms(floor.p99)}; ` +
        `the frame after the rows changed ${ms(floorFrame.p50)} (${ms(floorFrame.p99)})`
    )
    console.log(
      `  (a) through the app, idle:                  p50 ${ms(idle.p50)}, p99 ${ms(idle.p99)}; p99 ratio to the floor ${idleRatio.toFixed(2)} (target ≤ ${TARGET_IDLE})`
    )
    console.log(
      `  (b) through the app, another tab flooding:  p50 ${ms(underFlood.p50)}, p99 ${ms(underFlood.p99)}; p99 ratio to the floor ${floodRatio.toFixed(2)} ` +
        `(target ≤ ${TARGET_FLOOD}; the other tab took ${floodMbps.toFixed(1)} MB/s meanwhile)`
    )
    const legWords = (legs: ReturnType<typeof legsOf>): string =>
      legs
        ? `key → main p50 ${ms(legs.toMain.p50)} (p99 ${ms(legs.toMain.p99)}), in main + link + sshd ${ms(legs.inMain.p50)} (${ms(legs.inMain.p99)}), ` +
          `main → painted ${ms(legs.toPaint.p50)} (${ms(legs.toPaint.p99)}), of which read → rows changed ${ms(legs.readToRows.p50)} (${ms(legs.readToRows.p99)}), the frame after ${ms(legs.frame.p50)} (${ms(legs.frame.p99)})`
        : 'not split (main saw more inputs or echoes than keys)'
    console.log(`  where the time goes, idle:     ${legWords(idleLegs)}`)
    console.log(`  where the time goes, flooding: ${legWords(floodLegs)}`)
    const ok = idleRatio <= TARGET_IDLE && floodRatio <= TARGET_FLOOD && floodMbps > 0.5
    if (floodMbps <= 0.5) console.log('  the other tab did not flood: (b) measured nothing')
    console.log(`  ${ok ? 'PASS' : 'FAIL'}`)
    return ok ? 0 : 1
  } finally {
    await rig.close()
  }
}

runBench(main)
