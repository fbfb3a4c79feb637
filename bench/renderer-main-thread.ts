/**
 * Where the page's main thread spends a flood, from a Chromium trace: rendering frames, xterm's
 * parse slices (timer tasks: xterm parses its queued writes in setTimeout slices), the rest,
 * and idle. The xterm benchmark prints it so a reader can tell what bounds the rate on the
 * machine at hand (frames on a software rasteriser, or parsing, or waiting for the transport).
 */
import { readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'

export interface MainThreadShares {
  seconds: number
  frames: number
  frameMs: number
  parseMs: number
  otherMs: number
}

interface TraceEvent {
  name: string
  ph: string
  pid: number
  tid: number
  ts: number
  dur?: number
  args?: { name?: string }
}

export async function traceMainThread(browser: Browser, page: Page, durationMs: number): Promise<MainThreadShares> {
  const path = join(tmpdir(), `xterm-bench-trace-${process.pid}.json`)
  await browser.startTracing(page, { path, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'] })
  await new Promise((resolve) => setTimeout(resolve, durationMs))
  await browser.stopTracing()
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[]
    return sharesOf(Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []))
  } finally {
    await rm(path, { force: true })
  }
}

function sharesOf(events: TraceEvent[]): MainThreadShares {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  const onMain = events
    .filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts)
  const tasks = onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask')
  let frames = 0
  let frameUs = 0
  let parseUs = 0
  let otherUs = 0
  let child = 0
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0)
    const names = new Set<string>()
    while (child < onMain.length && (onMain[child] as TraceEvent).ts < task.ts) child++
    for (let i = child; i < onMain.length && (onMain[i] as TraceEvent).ts < end; i++) names.add((onMain[i] as TraceEvent).name)
    if (names.has('Commit') || names.has('ProxyMain::BeginMainFrame')) {
      frames++
      frameUs += task.dur ?? 0
    } else if (names.has('TimerFire')) parseUs += task.dur ?? 0
    else otherUs += task.dur ?? 0
  }
  const first = tasks[0]
  const last = tasks.at(-1)
  const seconds = first && last ? (last.ts + (last.dur ?? 0) - first.ts) / 1e6 : 0
  return { seconds, frames, frameMs: frameUs / 1000, parseMs: parseUs / 1000, otherMs: otherUs / 1000 }
}
