/**
 * Terminal throughput: 256 MiB of shell output through the app's SSH session module and data
 * path (ssh2 channel → flow control → UTF-8 batcher → `ssh.data` events, acknowledged as a fast
 * renderer would) against OpenSSH's own `ssh -tt` client, both reading the same command from the
 * same local sshd in the same run. Prints MB/s for each and the ratio; exits 1 below 0.8.
 *
 *   npx tsx bench/ssh-throughput.ts [--mib 256]
 */
import './plays-main'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OpenSshServer, opensshAvailable } from '../src/main/ssh/testing/openssh-server'
import { floodCommand, floodThroughApp } from '../src/main/ssh/testing/terminal-flood'
import { countFullCollections } from '../src/main/testing/full-collections'
import { openSshClientArgs, runBench } from './run-bench'

const TARGET_RATIO = 0.8
const mibArg = process.argv.indexOf('--mib')
const MIB = mibArg > 0 ? Number(process.argv[mibArg + 1]) : 256
const BYTES = MIB * 1024 * 1024
const REMOTE = floodCommand(BYTES)

async function viaApp(server: OpenSshServer, scratch: string): Promise<{ seconds: number; bytes: number; peak: number }> {
  const flood = await floodThroughApp(server, scratch, BYTES)
  if (process.env['BENCH_DEBUG'])
    console.log(`  app cpu: user ${(flood.cpu.user / 1e6).toFixed(2)} s, system ${(flood.cpu.system / 1e6).toFixed(2)} s`)
  return flood
}

function viaOpenSsh(server: OpenSshServer): Promise<{ seconds: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    let started = 0
    const child = spawn('ssh', ['-tt', ...openSshClientArgs(server, '-p'), REMOTE], { stdio: ['pipe', 'pipe', 'inherit'] })
    let bytes = 0
    child.stdout.on('data', (chunk: Buffer) => {
      started ||= performance.now()
      bytes += chunk.length
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`ssh exited with ${code}`))
      else resolve({ seconds: (performance.now() - started) / 1000, bytes })
    })
  })
}

async function main(): Promise<number> {
  if (!opensshAvailable()) {
    console.error('ssh-throughput: needs /usr/sbin/sshd and ssh-keygen (Debian openssh-server).')
    return 2
  }
  const server = new OpenSshServer()
  const scratch = mkdtempSync(join(tmpdir(), 'cloudtray-bench-'))
  try {
    await server.start()
    const mbps = (run: { seconds: number; bytes: number }): number => run.bytes / 1e6 / run.seconds
    // Interleaved rounds, best of each: the machine is shared, and a burst of someone else's work
    // during one run should not decide the ratio. Four: OpenSSH's rate alone moves 60–93 MB/s
    // from one round to the next here, and the best of two gave the same code 0.73–1.10 (six
    // rounds of it: 0.98, the rounds' means 66.7 vs 67.4 MB/s).
    const rounds = Number(process.env['BENCH_ROUNDS'] ?? 4)
    let reference = { seconds: Infinity, bytes: 0 }
    let app = { seconds: Infinity, bytes: 0, peak: 0 }
    const fullCollections: number[] = []
    for (let round = 0; round < rounds; round++) {
      const ref = await viaOpenSsh(server)
      if (mbps(ref) > mbps(reference)) reference = ref
      const collections = countFullCollections()
      const ours = await viaApp(server, scratch)
      fullCollections.push(collections())
      if (mbps(ours) > mbps(app)) app = ours
      if (process.env['BENCH_DEBUG'])
        console.log(`  round ${round + 1}: ssh ${mbps(ref).toFixed(1)} MB/s, app ${mbps(ours).toFixed(1)} MB/s`)
    }
    if (app.bytes < BYTES || reference.bytes < BYTES) throw new Error(`short read: app ${app.bytes}, ssh ${reference.bytes} of ${BYTES}`)
    const ratio = mbps(app) / mbps(reference)
    console.log(`ssh-throughput: ${MIB} MiB of terminal output, best of ${rounds} interleaved rounds`)
    console.log(`  OpenSSH ssh -tt (reference): ${mbps(reference).toFixed(1)} MB/s (${reference.seconds.toFixed(2)} s)`)
    console.log(
      `  app session + data path:     ${mbps(app).toFixed(1)} MB/s (${app.seconds.toFixed(2)} s), peak unacknowledged ${(app.peak / 1024).toFixed(0)} KiB`
    )
    console.log(
      `  V8 full collections in each app round: ${fullCollections.join(', ')} (src/main/heap-growth.ts keeps main, and this process playing it, out of many)`
    )
    console.log(`  ratio app/OpenSSH: ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'PASS' : 'FAIL'}`)
    return ratio >= TARGET_RATIO ? 0 : 1
  } finally {
    await server.dispose()
    rmSync(scratch, { recursive: true, force: true })
  }
}

runBench(main)
