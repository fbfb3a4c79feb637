/**
 * `npm run bench`: every benchmark, one after another (they measure time, so never two at once
 * on a 2-core machine). Each prints its own ratio against a reference measured in the same run
 * and exits non-zero when it misses its target; this prints a summary and fails if any did.
 *
 *   npm run bench                      # all
 *   npm run bench -- ssh-throughput    # only those whose name contains the word
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BENCHES: { file: string; target: string }[] = [
  { file: 'list-all-instances.ts', target: 'listAllInstances (50/page) vs one 1000-row page ≤ 2.0' },
  { file: 'watch-hour.ts', target: 'requests vs a fixed 5 s poller ≤ 0.2; a change noticed within 3 s' },
  {
    file: 'catalog-watch.ts',
    target: 'catalog reads for 50 watches over a day vs one per watch per interval ≤ 0.02; stock noticed within one interval'
  },
  { file: 'render-instances.ts', target: 'first render of 1000 vs 100 instances ≤ 1.3; a status change re-renders one row' },
  { file: 'ssh-throughput.ts', target: '256 MiB through the app vs OpenSSH ≥ 0.8' },
  { file: 'xterm-throughput.ts', target: 'into xterm through the app vs xterm alone ≥ 0.8; Ctrl-C parsed within 100 ms' },
  {
    file: 'typing-latency.ts',
    target: 'key press → echo painted through the app to sshd vs xterm echoing locally: p99 ≤ 1.5 idle, ≤ 3 with another tab flooding'
  },
  { file: 'sftp-throughput.ts', target: '256 MiB up and down through the app’s SFTP vs OpenSSH sftp ≥ 0.9 each' },
  { file: 'tunnel-throughput.ts', target: '256 MiB through an app tunnel vs ssh -L ≥ 0.8' },
  {
    file: 'far-region.ts',
    target: '256 MiB over a 50 ms round trip: SFTP up and down vs OpenSSH sftp ≥ 1.5 each, a tunnel vs ssh -L ≥ 1.0'
  },
  { file: 'emulator-load.ts', target: 'emulator under autocannon answers correctly' },
  { file: 'gpu-probe.ts', target: 'SSH connections for GPU probes vs a fresh connection per probe ≤ 0.05' },
  { file: 'reattach.ts', target: 'the link back → live output in a tmux tab vs ssh -t host tmux attach ≤ 1.2' },
  { file: 'restore-tabs.ts', target: '20 restored tabs vs 1: the active tab’s first live byte ≤ 1.5, the 19 others not connected' },
  { file: 'cli-latency.ts', target: 'cloud-tray list --json vs the window’s contract ≤ 1.5; cloud-tray ssh vs OpenSSH ssh ≤ 1.0' },
  {
    file: 'soak.ts',
    target:
      'an emulated day, 20 instances, faults and restarts ≤ 5 min: 0 crashes, 0 duplicates, 0 lost events, memory ≤ +10 %, every rule on time'
  },
  { file: 'idle.ts', target: 'idle core with 20 watched instances, no window: ≤ 0.5 % of a core (vs plain Node with one 30 s interval)' },
  { file: 'startup.ts', target: 'remembered session to the list painted vs the same page with no data ≤ 2.0' },
  {
    file: 'memory.ts',
    target:
      'main heap growth per terminal tab ≤ 2× the scrollback it holds (8 tabs × 10,000 lines); main and page heap after closing them ≤ +10 %'
  }
]

const here = dirname(fileURLToPath(import.meta.url))
const filter = process.argv.slice(2)
const chosen = BENCHES.filter((bench) => filter.length === 0 || filter.some((word) => bench.file.includes(word)))
if (chosen.length === 0) {
  console.error(`No benchmark matches ${filter.join(' ')}. Known: ${BENCHES.map((b) => b.file).join(', ')}`)
  process.exit(2)
}

const results: { file: string; target: string; ok: boolean; seconds: number }[] = []
for (const bench of chosen) {
  console.log(`\n=== ${bench.file} (${bench.target})`)
  const started = Date.now()
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, bench.file)], { stdio: 'inherit' })
  results.push({ ...bench, ok: run.status === 0, seconds: (Date.now() - started) / 1000 })
}

console.log('\n=== summary')
for (const result of results) {
  console.log(`${result.ok ? 'PASS' : 'FAIL'}  ${result.file.padEnd(24)} ${result.seconds.toFixed(1).padStart(6)} s  ${result.target}`)
}
process.exit(results.every((result) => result.ok) ? 0 : 1)
