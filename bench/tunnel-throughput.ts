/**
 * Tunnel throughput: 256 MiB from a TCP server "inside the instance" (a separate process on
 * 127.0.0.1) to this computer through an app tunnel (TunnelManager: a local listener carried by
 * SSH direct-tcpip on the instance's shared connection) against OpenSSH's `ssh -N -L` to the same
 * local sshd, in the same run. Both tunnels are up before timing starts (tunnels are long-lived);
 * each run is one connection, timed from connect to the last byte. Prints MB/s for each and the
 * ratio; exits 1 below 0.8. The reader of each tunnel is a process of its own, as a browser is.
 *
 *   npx tsx bench/tunnel-throughput.ts [--mib 256]
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { systemClock } from '../src/shared/clock'
import type { KnownHostsStore } from '../src/main/ssh/host-keys/known-hosts-store'
import { sshdInstance, sshdLinks } from '../src/main/ssh/testing/sshd-links'
import { freePort, waitForPort, type OpenSshServer } from '../src/main/ssh/testing/openssh-server'
import { TunnelManager } from '../src/main/ssh/tunnels/tunnel-manager'
import { TunnelStore } from '../src/main/ssh/tunnels/tunnel-store'
import { openSshClientArgs, runBench, withTrustedSshd } from './run-bench'

const TARGET_RATIO = 0.8
const mibArg = process.argv.indexOf('--mib')
const MIB = mibArg > 0 ? Number(process.argv[mibArg + 1]) : 256
const BYTES = MIB * 1024 * 1024

/**
 * The app inside the instance: its own process (so it never shares the app's event loop),
 * sending BYTES to each connection, then closing it. Plain JavaScript for `node -e`.
 */
const SOURCE = `
const net = require('node:net')
const block = require('node:crypto').randomBytes(1024 * 1024)
const total = ${BYTES}
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

function startSource(): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SOURCE], { stdio: ['ignore', 'pipe', 'inherit'] })
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
function pull(port: number): Promise<{ seconds: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', READER, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', reject)
    child.once('close', (code) =>
      code === 0 ? resolve(JSON.parse(output) as { seconds: number; bytes: number }) : reject(new Error(`reader exited ${code}`))
    )
  })
}

async function main(server: OpenSshServer, scratch: string, knownHosts: KnownHostsStore): Promise<number> {
  const source = await startSource()
  let ssh: ChildProcess | undefined
  const clock = systemClock()
  const links = sshdLinks(server, { clock, knownHosts, homeDir: scratch })
  const tunnels = new TunnelManager({
    links,
    clock,
    store: new TunnelStore(scratch),
    findInstance: () => sshdInstance(server),
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
      ['-N', '-L', `${sshPort}:localhost:${source.port}`, '-o', 'ExitOnForwardFailure=yes', ...openSshClientArgs(server, '-p')],
      { stdio: ['ignore', 'ignore', 'inherit'] }
    )
    await waitForPort(sshPort, () => (ssh?.exitCode !== null ? 'ssh -L exited' : undefined))

    const mbps = (run: { seconds: number; bytes: number }): number => run.bytes / 1e6 / run.seconds
    // Interleaved rounds, best of each (a shared machine): the first of each warms its path.
    const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3)
    let reference = { seconds: Infinity, bytes: 0 }
    let app = { seconds: Infinity, bytes: 0 }
    for (let round = 0; round < rounds; round++) {
      const ref = await pull(sshPort)
      const ours = await pull(tunnel.localPort)
      if (ref.bytes !== BYTES || ours.bytes !== BYTES) throw new Error(`short read: ssh -L ${ref.bytes}, app ${ours.bytes} of ${BYTES}`)
      if (mbps(ref) > mbps(reference)) reference = ref
      if (mbps(ours) > mbps(app)) app = ours
      if (process.env['BENCH_DEBUG'])
        console.log(`  round ${round + 1}: ssh -L ${mbps(ref).toFixed(0)} MB/s, app ${mbps(ours).toFixed(0)} MB/s`)
    }
    const ratio = mbps(app) / mbps(reference)
    console.log(`tunnel-throughput: ${MIB} MiB through a tunnel, best of ${rounds} interleaved rounds`)
    console.log(`  OpenSSH ssh -L (reference): ${mbps(reference).toFixed(1)} MB/s (${reference.seconds.toFixed(2)} s)`)
    console.log(`  app tunnel:                 ${mbps(app).toFixed(1)} MB/s (${app.seconds.toFixed(2)} s)`)
    console.log(`  ratio app/OpenSSH: ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'PASS' : 'FAIL'}`)
    return ratio >= TARGET_RATIO ? 0 : 1
  } finally {
    ssh?.kill()
    source.child.kill()
    tunnels.dispose()
    links.dispose()
  }
}

runBench(() => withTrustedSshd('tunnel-throughput', main))
