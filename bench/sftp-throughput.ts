/**
 * SFTP throughput: a 256 MiB file up and then down through the app's files module (the
 * `files.*` handlers over a shared SSH connection: chunks under `files.written` credit into the
 * pipelined writer, pipelined reads out as `files.data` under `files.saved` credit, exactly as a
 * window drives them, minus the window) against OpenSSH's own `sftp` client doing `put` and
 * `get` of the same file, to the same local sshd (OpenSSH's sftp-server), in the same run. Both
 * are timed from the start of their connection to the last byte on disk, handshake included on
 * both sides. Prints MB/s for each and the two ratios; exits 1 when either is below 0.9.
 *
 *   npx tsx bench/sftp-throughput.ts [--mib 256]
 */
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { closeSync, createReadStream, mkdirSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { systemClock } from '../src/shared/clock'
import { filesCommands } from '../src/main/commands/ssh-files'
import { FilesManager } from '../src/main/ssh/sftp/files-manager'
import { KnownHostsStore } from '../src/main/ssh/host-keys/known-hosts-store'
import { FilesHarness, groupDriver } from '../src/main/ssh/testing/files-harness'
import { sshdLinks } from '../src/main/ssh/testing/sshd-links'
import type { OpenSshServer } from '../src/main/ssh/testing/openssh-server'
import { openSshClientArgs, runBench, withTrustedSshd } from './run-bench'

const TARGET_RATIO = 0.9
const mibArg = process.argv.indexOf('--mib')
const MIB = mibArg > 0 ? Number(process.argv[mibArg + 1]) : 256
const BYTES = MIB * 1024 * 1024

interface Run {
  seconds: number
}

/** The app's files module: a fresh connection, then the transfer, as a window would drive it. */
async function viaApp(server: OpenSshServer, scratch: string, direction: 'up' | 'down', local: string, remoteName: string): Promise<Run> {
  const started = performance.now()
  const clock = systemClock()
  const knownHosts = new KnownHostsStore(join(scratch, 'known_hosts'), undefined)
  const harness = new FilesHarness()
  const links = sshdLinks(server, { clock, knownHosts, homeDir: scratch, emit: harness.emit })
  const files = new FilesManager({ links, clock, emit: harness.emit })
  Object.assign(harness, groupDriver(filesCommands(files), harness.clientId))
  try {
    const { sessionId, home } = await harness.open('i-1')
    if (process.env['BENCH_DEBUG'])
      console.log(`  app ${direction}: connected after ${((performance.now() - started) / 1000).toFixed(2)} s`)
    const outcome =
      direction === 'up'
        ? await harness.upload(sessionId, home, join(local, '..'), [remoteName], { replace: true })
        : await harness.download(sessionId, [join(home, remoteName)], local)
    if (outcome.state !== 'done') throw new Error(`app ${direction}load ended ${outcome.state}: ${outcome.message}`)
    return { seconds: (performance.now() - started) / 1000 }
  } finally {
    files.dispose()
    links.dispose()
  }
}

/** OpenSSH's sftp client, batch mode, the same file to the same server. */
function viaSftp(server: OpenSshServer, batch: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn('sftp', ['-q', '-b', '-', ...openSshClientArgs(server, '-P')], { stdio: ['pipe', 'ignore', 'inherit'] })
    child.stdin.end(batch)
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve({ seconds: (performance.now() - started) / 1000 }) : reject(new Error(`sftp exited with ${code}`))
    )
  })
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

async function main(server: OpenSshServer, scratch: string): Promise<number> {
  const source = join(scratch, 'up')
  mkdirSync(source)
  const file = join(source, 'payload.bin')
  const fd = openSync(file, 'w')
  const block = randomBytes(4 * 1024 * 1024)
  for (let written = 0; written < BYTES; written += block.length) writeSync(fd, block, 0, Math.min(block.length, BYTES - written))
  closeSync(fd)
  const expected = await sha256(file)
  const remote = join(server.homePath, 'payload.bin')

  const mbps = (run: Run): number => BYTES / 1e6 / run.seconds
  const best = (a: Run | undefined, b: Run): Run => (a && a.seconds <= b.seconds ? a : b)
  // Interleaved rounds, best of each: the machine is shared, and a burst of someone else's work
  // during one run should not decide a ratio.
  const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3)
  let sftpUp: Run | undefined
  let sftpDown: Run | undefined
  let appUp: Run | undefined
  let appDown: Run | undefined
  for (let round = 0; round < rounds; round++) {
    const back = join(scratch, `down-${round}`)
    mkdirSync(join(back, 'sftp'), { recursive: true })
    mkdirSync(join(back, 'app'), { recursive: true })
    // Each upload makes a new file, as the first one does: replacing one costs the server the
    // freeing of its blocks too, which would otherwise fall on whichever side came second.
    rmSync(remote, { force: true })
    const refUp = await viaSftp(server, `put ${file} payload.bin\n`)
    const refDown = await viaSftp(server, `get payload.bin ${join(back, 'sftp', 'payload.bin')}\n`)
    rmSync(remote, { force: true })
    const ourUp = await viaApp(server, scratch, 'up', file, 'payload.bin')
    if ((await sha256(remote)) !== expected) throw new Error('the app’s upload arrived different')
    const ourDown = await viaApp(server, scratch, 'down', join(back, 'app'), 'payload.bin')
    if ((await sha256(join(back, 'app', 'payload.bin'))) !== expected) throw new Error('the app’s download arrived different')
    sftpUp = best(sftpUp, refUp)
    sftpDown = best(sftpDown, refDown)
    appUp = best(appUp, ourUp)
    appDown = best(appDown, ourDown)
    if (process.env['BENCH_DEBUG']) {
      console.log(
        `  round ${round + 1}: up sftp ${mbps(refUp).toFixed(0)} / app ${mbps(ourUp).toFixed(0)} MB/s, down sftp ${mbps(refDown).toFixed(0)} / app ${mbps(ourDown).toFixed(0)} MB/s`
      )
    }
    rmSync(back, { recursive: true, force: true })
  }
  const up = mbps(appUp!) / mbps(sftpUp!)
  const down = mbps(appDown!) / mbps(sftpDown!)
  console.log(`sftp-throughput: ${MIB} MiB up and down, best of ${rounds} interleaved rounds, connection included`)
  console.log(`  up:   OpenSSH sftp put (reference) ${mbps(sftpUp!).toFixed(1)} MB/s, app ${mbps(appUp!).toFixed(1)} MB/s`)
  console.log(`  down: OpenSSH sftp get (reference) ${mbps(sftpDown!).toFixed(1)} MB/s, app ${mbps(appDown!).toFixed(1)} MB/s`)
  const verdict = (ratio: number): string => `${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'PASS' : 'FAIL'}`
  console.log(`  ratio up app/OpenSSH:   ${verdict(up)}`)
  console.log(`  ratio down app/OpenSSH: ${verdict(down)}`)
  return up >= TARGET_RATIO && down >= TARGET_RATIO ? 0 : 1
}

runBench(() => withTrustedSshd('sftp-throughput', main))
