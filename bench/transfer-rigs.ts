/**
 * What the transfer benchmarks share (sftp-throughput, tunnel-throughput, far-region): a random
 * payload file and its hash, a transfer through the app's files module and one through OpenSSH's
 * `sftp`, a byte source "inside the instance" and a reader process for tunnels. Each takes the
 * SSH port to use, so the same run can go straight to sshd or through a delaying proxy.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { closeSync, createReadStream, mkdirSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { systemClock } from '../src/shared/clock'
import { filesCommands } from '../src/main/commands/ssh-files'
import { FilesManager } from '../src/main/ssh/sftp/files-manager'
import { KnownHostsStore } from '../src/main/ssh/host-keys/known-hosts-store'
import { FilesHarness, groupDriver } from '../src/main/ssh/testing/files-harness'
import { sshdInstance, sshdLinks } from '../src/main/ssh/testing/sshd-links'
import { freePort, waitForPort, type OpenSshServer } from '../src/main/ssh/testing/openssh-server'
import { TunnelManager } from '../src/main/ssh/tunnels/tunnel-manager'
import { TunnelStore } from '../src/main/ssh/tunnels/tunnel-store'
import { countFullCollections } from '../src/main/testing/full-collections'
import { recordedProblems } from '../src/main/testing/save-problems'
import { openSshClientArgs } from './run-bench'

export interface Run {
  seconds: number
}

/** Writes `bytes` of random data (4 MiB repeated) to `file`; answers its SHA-256. */
async function makePayload(file: string, bytes: number): Promise<string> {
  const fd = openSync(file, 'w')
  const block = randomBytes(4 * 1024 * 1024)
  for (let written = 0; written < bytes; written += block.length) writeSync(fd, block, 0, Math.min(block.length, bytes - written))
  closeSync(fd)
  return sha256(file)
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/**
 * The app's files module: a fresh connection (to `port`: sshd's own or a proxy's, whose host key
 * `knownHosts` trusts), then the transfer, as a window would drive it. Timed from the start of the
 * connection to the last byte on disk.
 */
async function viaApp(
  server: OpenSshServer,
  scratch: string,
  direction: 'up' | 'down',
  local: string,
  remoteName: string,
  port = server.port
): Promise<Run> {
  const started = performance.now()
  const clock = systemClock()
  const knownHosts = new KnownHostsStore(join(scratch, 'known_hosts'), undefined)
  const harness = new FilesHarness()
  const links = sshdLinks(server, {
    clock,
    knownHosts,
    homeDir: scratch,
    emit: harness.emit,
    instance: () => sshdInstance(server, 'i-1', port)
  })
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

/** OpenSSH's sftp client, batch mode, the same file to the same server (through `port`). */
function viaSftp(server: OpenSshServer, batch: string, port = server.port): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn('sftp', ['-q', '-b', '-', ...openSshClientArgs(server, '-P', port)], { stdio: ['pipe', 'ignore', 'inherit'] })
    child.stdin.end(batch)
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve({ seconds: (performance.now() - started) / 1000 }) : reject(new Error(`sftp exited with ${code}`))
    )
  })
}

export interface SftpComparison {
  mbps: (run: Run) => number
  sftpUp: Run
  sftpDown: Run
  appUp: Run
  appDown: Run
}

/**
 * The same `bytes` of random data up and then down, by OpenSSH's `sftp` and by the app, through
 * `port` (sshd's, or a proxy's), in `rounds` interleaved rounds; the best of each is answered
 * (the machine is shared, and a burst of someone else's work during one run should not decide
 * a ratio). Every transfer of the app's is checked byte-identical.
 */
export async function compareSftp(
  server: OpenSshServer,
  scratch: string,
  options: { bytes: number; rounds: number; port?: number }
): Promise<SftpComparison> {
  const port = options.port ?? server.port
  const source = join(scratch, 'up')
  mkdirSync(source, { recursive: true })
  const file = join(source, 'payload.bin')
  const expected = await makePayload(file, options.bytes)
  const remote = join(server.homePath, 'payload.bin')

  const mbps = (run: Run): number => options.bytes / 1e6 / run.seconds
  const best = (a: Run | undefined, b: Run): Run => (a && a.seconds <= b.seconds ? a : b)
  let sftpUp: Run | undefined
  let sftpDown: Run | undefined
  let appUp: Run | undefined
  let appDown: Run | undefined
  for (let round = 0; round < options.rounds; round++) {
    const back = join(scratch, `down-${round}`)
    mkdirSync(join(back, 'sftp'), { recursive: true })
    mkdirSync(join(back, 'app'), { recursive: true })
    // Each upload makes a new file, as the first one does: replacing one costs the server the
    // freeing of its blocks too, which would otherwise fall on whichever side came second.
    rmSync(remote, { force: true })
    const refUp = await viaSftp(server, `put ${file} payload.bin\n`, port)
    const refDown = await viaSftp(server, `get payload.bin ${join(back, 'sftp', 'payload.bin')}\n`, port)
    rmSync(remote, { force: true })
    const ourUp = await viaApp(server, scratch, 'up', file, 'payload.bin', port)
    if ((await sha256(remote)) !== expected) throw new Error('the app’s upload arrived different')
    const ourDown = await viaApp(server, scratch, 'down', join(back, 'app'), 'payload.bin', port)
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
  return { mbps, sftpUp: sftpUp!, sftpDown: sftpDown!, appUp: appUp!, appDown: appDown! }
}

/**
 * The app inside the instance: its own process (so it never shares the app's event loop),
 * sending `bytes` to each connection, then closing it. Plain JavaScript for `node -e`.
 */
const SOURCE = `
const net = require('node:net')
const block = require('node:crypto').randomBytes(1024 * 1024)
const total = Number(process.argv[1])
const server = net.createServer((socket) => {
  let sent = 0
  const pump = () => {
    while (sent < total) {
      const piece = block.subarray(0, Math.min(block.length, total - sent))
      sent += piece.length
      if (!socket.write(piece)) return socket.once('drain', pump)
    }
    socket.end()
  }
  socket.on('error', () => socket.destroy())
  pump()
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
`

/** Starts a source of `bytes` per connection on a loopback port. */
function startSource(bytes: number): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SOURCE, String(bytes)], { stdio: ['ignore', 'pipe', 'inherit'] })
    child.stdout!.once('data', (line: Buffer) => resolve({ port: Number(line.toString().trim()), child }))
    child.once('error', reject)
  })
}

/**
 * The reader on this computer (a browser, a client library): its own process too, so that the
 * app's tunnel, like OpenSSH's, does not share its event loop with what reads from it.
 */
const READER = `
const started = performance.now()
let bytes = 0
const socket = require('node:net').connect({ host: '127.0.0.1', port: Number(process.argv[1]) })
socket.on('data', (chunk) => (bytes += chunk.length))
socket.on('error', (error) => { console.error(error.message); process.exit(1) })
socket.on('end', () => console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, bytes })))
`

/** One connection to `port`, read to the end by a reader process; answers the seconds and bytes. */
function pull(port: number): Promise<Pulled> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', READER, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', reject)
    child.once('close', (code) => (code === 0 ? resolve(JSON.parse(output) as Pulled) : reject(new Error(`reader exited ${code}`))))
  })
}

export interface Pulled {
  seconds: number
  bytes: number
}

export const pulledMbps = (run: Pulled): number => run.bytes / 1e6 / run.seconds

/**
 * An app tunnel and OpenSSH's `ssh -N -L` to the same source (`bytes` per connection) through
 * the same SSH port (sshd's, or a proxy's), both up before timing starts (tunnels are
 * long-lived); then `rounds` interleaved pulls through each, the best of each answered (a
 * shared machine: the first of each warms its path).
 */
export async function compareTunnels(
  server: OpenSshServer,
  scratch: string,
  knownHosts: KnownHostsStore,
  options: { bytes: number; rounds: number; port?: number }
): Promise<{ reference: Pulled; app: Pulled; fullCollections: number[] }> {
  const port = options.port ?? server.port
  const source = await startSource(options.bytes)
  let ssh: ChildProcess | undefined
  const clock = systemClock()
  const links = sshdLinks(server, { clock, knownHosts, homeDir: scratch, instance: () => sshdInstance(server, 'i-1', port) })
  const tunnels = new TunnelManager({
    links,
    clock,
    store: new TunnelStore(scratch, recordedProblems().problems),
    findInstance: () => sshdInstance(server, 'i-1', port),
    publish: () => {},
    openUrl: async () => {}
  })
  try {
    // The app's tunnel, open.
    await tunnels.signedIn('bench')
    const tunnel = await tunnels.start({ instanceId: 'i-1', remotePort: source.port }, undefined)
    for (let waited = 0; tunnels.list()[0]?.state !== 'open'; waited += 20) {
      if (waited > 20_000) throw new Error(`the app's tunnel did not open: ${tunnels.list()[0]?.message}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    // OpenSSH's, to the same server and port.
    const sshPort = await freePort()
    ssh = spawn(
      'ssh',
      ['-N', '-L', `${sshPort}:localhost:${source.port}`, '-o', 'ExitOnForwardFailure=yes', ...openSshClientArgs(server, '-p', port)],
      { stdio: ['ignore', 'ignore', 'inherit'] }
    )
    await waitForPort(sshPort, () => (ssh?.exitCode !== null ? 'ssh -L exited' : undefined))

    let reference: Pulled = { seconds: Infinity, bytes: 0 }
    let app: Pulled = { seconds: Infinity, bytes: 0 }
    const fullCollections: number[] = []
    for (let round = 0; round < options.rounds; round++) {
      const ref = await pull(sshPort)
      const collections = countFullCollections()
      const ours = await pull(tunnel.localPort)
      fullCollections.push(collections())
      if (ref.bytes !== options.bytes || ours.bytes !== options.bytes)
        throw new Error(`short read: ssh -L ${ref.bytes}, app ${ours.bytes} of ${options.bytes}`)
      if (pulledMbps(ref) > pulledMbps(reference)) reference = ref
      if (pulledMbps(ours) > pulledMbps(app)) app = ours
      if (process.env['BENCH_DEBUG'])
        console.log(`  round ${round + 1}: ssh -L ${pulledMbps(ref).toFixed(0)} MB/s, app ${pulledMbps(ours).toFixed(0)} MB/s`)
    }
    return { reference, app, fullCollections }
  } finally {
    ssh?.kill()
    source.child.kill()
    tunnels.dispose()
    links.dispose()
  }
}
