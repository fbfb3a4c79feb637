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
import type { Page } from '@playwright/test'
import type { EventName, Events } from '../src/shared/contract'
import { connected, openTerminal, pageTerminal, percentile, startTerminalRig, typeLine, until, xtermAlonePage } from './terminal-rig'
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
      // Inside the frame that changed the rows: a task posted now runs after it has painted.
      const channel = new MessageChannel()
      channel.port1.onmessage = () => finish(performance.now() - keyAt)
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

/** Types KEYS letters into the page's focused terminal at a human pace; the ms from each key to its echo painted. */
async function typeKeys(page: Page, textarea: string): Promise<number[]> {
  const random = seeded(28)
  await page.evaluate('window.__typing.watch()')
  await page.locator(textarea).first().focus()
  const latencies: number[] = []
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
    latencies.push((await page.evaluate(`window.__typing.result(${ECHO_TIMEOUT_MS})`)) as number)
    if (line.length === LINE) {
      await page.keyboard.press('Control+U')
      line = ''
      next += 150
    }
  }
  return latencies
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
    const terminal = await openTerminal(page, shell)
    if (terminal.renderer !== 'DOM') {
      console.error(`typing-latency: the app drew with the ${terminal.renderer} renderer; this bench reads the DOM renderer's rows`)
      return 2
    }
    await page.evaluate(PROBE)

    // The floor: xterm alone, echoing locally, in the same browser.
    const alone = await xtermAlonePage(browser, terminal)
    await alone.evaluate(LOCAL_ECHO)
    await alone.evaluate(PROBE)
    const floor = summary(await typeKeys(alone, '.xterm-helper-textarea'))
    await alone.close()

    // (a) Idle: this tab only.
    await page.bringToFront()
    const textarea = '.xterm-helper-textarea:visible'
    const idle = summary(await typeKeys(page, textarea))

    // (b) Another tab of the window floods; this one is shown again and typed into.
    let flooded = 0
    const off = shell.core.subscribe(<E extends EventName>(event: E, payload: Events[E]) => {
      if (event === 'ssh.data') flooded += (payload as Events['ssh.data']).data.length
    })
    await page.getByRole('button', { name: 'New tab' }).click()
    await connected(page)
    await typeLine(page, 'yes')
    await until(() => flooded > 4 * 1024 * 1024, 'the other tab to flood', 60_000)
    await page.getByRole('tab', { name: 'bench', exact: true }).click()
    await pageTerminal(page)
    const floodFrom = { bytes: flooded, at: performance.now() }
    const underFlood = summary(await typeKeys(page, textarea))
    const floodMbps = (flooded - floodFrom.bytes) / 1e6 / ((performance.now() - floodFrom.at) / 1000)
    off()

    const idleRatio = idle.p99 / floor.p99
    const floodRatio = underFlood.p99 / floor.p99
    console.log(
      `typing-latency: ${KEYS} keys at a human pace into a ${terminal.cols}×${terminal.rows} xterm (${terminal.renderer} renderer), ` +
        `headless Chromium; remote: ${rig.remoteLabel}; key press → echo painted`
    )
    console.log(`  reference, xterm alone echoing locally (the frame's floor): p50 ${ms(floor.p50)}, p99 ${ms(floor.p99)}`)
    console.log(
      `  (a) through the app, idle:                  p50 ${ms(idle.p50)}, p99 ${ms(idle.p99)}; p99 ratio to the floor ${idleRatio.toFixed(2)} (target ≤ ${TARGET_IDLE})`
    )
    console.log(
      `  (b) through the app, another tab flooding:  p50 ${ms(underFlood.p50)}, p99 ${ms(underFlood.p99)}; p99 ratio to the floor ${floodRatio.toFixed(2)} ` +
        `(target ≤ ${TARGET_FLOOD}; the other tab took ${floodMbps.toFixed(1)} MB/s meanwhile)`
    )
    const ok = idleRatio <= TARGET_IDLE && floodRatio <= TARGET_FLOOD && floodMbps > 0.5
    if (floodMbps <= 0.5) console.log('  the other tab did not flood: (b) measured nothing')
    console.log(`  ${ok ? 'PASS' : 'FAIL'}`)
    return ok ? 0 : 1
  } finally {
    await rig.close()
  }
}

runBench(main)
