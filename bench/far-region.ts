/**
 * Far regions: a GPU on another continent is 100–200 ms away, and one SSH channel carries at most
 * its window per round trip whatever the CPU. The same 256 MiB up and down over SFTP (the app's
 * files module vs OpenSSH's `sftp put` / `get`) and through a tunnel (an app tunnel vs `ssh -N
 * -L`), to the same local sshd, every byte of both through the bench's own proxy that adds 50 ms
 * of round trip (src/main/ssh/testing/delay-proxy.ts, a process of its own: 25 ms each way, no
 * bandwidth limit, no reordering; these machines have no kernel netem). The pieces are the
 * loopback benches' (transfer-rigs.ts), pointed at the proxy's port.
 *
 * Prints each side's MB/s and the ratios; exits 1 when SFTP up or down is below 1.5× OpenSSH or
 * the tunnel below 1.0×.
 *
 *   npx tsx bench/far-region.ts [--mib 256] [--rtt-ms 50]
 */
import './plays-main'
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { KnownHostsStore } from '../src/main/ssh/host-keys/known-hosts-store'
import type { OpenSshServer } from '../src/main/ssh/testing/openssh-server'
import { numberArgument, runBench, withTrustedSshd } from './run-bench'
import { compareSftp, compareTunnels, pulledMbps } from './transfer-rigs'

const SFTP_TARGET = 1.5
const TUNNEL_TARGET = 1.0
const MIB = numberArgument('--mib', 256)
const RTT_MS = numberArgument('--rtt-ms', 50)
const BYTES = MIB * 1024 * 1024

/** The delaying proxy in front of `targetPort`, in its own process; answers its port. */
function startProxy(targetPort: number): Promise<{ port: number; child: ChildProcess }> {
  const script = fileURLToPath(new URL('../src/main/ssh/testing/delay-proxy.ts', import.meta.url))
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, String(targetPort), String(RTT_MS / 2)], {
      stdio: ['ignore', 'pipe', 'inherit']
    })
    child.stdout!.once('data', (line: Buffer) => resolve({ port: Number(line.toString().trim()), child }))
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the delay proxy exited with ${code}`)))
  })
}

async function main(server: OpenSshServer, scratch: string, knownHosts: KnownHostsStore): Promise<number> {
  const proxy = await startProxy(server.port)
  try {
    // The same host key answers at the proxy's port.
    await knownHosts.remember('127.0.0.1', proxy.port, server.hostPublicKey())
    const rounds = Number(process.env['BENCH_ROUNDS'] ?? 2)
    const sftp = await compareSftp(server, scratch, { bytes: BYTES, rounds, port: proxy.port })
    const tunnel = await compareTunnels(server, scratch, knownHosts, { bytes: BYTES, rounds, port: proxy.port })

    const { mbps } = sftp
    const up = mbps(sftp.appUp) / mbps(sftp.sftpUp)
    const down = mbps(sftp.appDown) / mbps(sftp.sftpDown)
    const through = pulledMbps(tunnel.app) / pulledMbps(tunnel.reference)
    const verdict = (ratio: number, target: number): string =>
      `${ratio.toFixed(2)} (target ≥ ${target.toFixed(1)}) ${ratio >= target ? 'PASS' : 'FAIL'}`
    console.log(`far-region: ${MIB} MiB each way and through a tunnel, ${RTT_MS} ms added round trip, best of ${rounds} interleaved rounds`)
    console.log(`  up:     OpenSSH sftp put (reference) ${mbps(sftp.sftpUp).toFixed(1)} MB/s, app ${mbps(sftp.appUp).toFixed(1)} MB/s`)
    console.log(`  down:   OpenSSH sftp get (reference) ${mbps(sftp.sftpDown).toFixed(1)} MB/s, app ${mbps(sftp.appDown).toFixed(1)} MB/s`)
    console.log(
      `  tunnel: OpenSSH ssh -L (reference) ${pulledMbps(tunnel.reference).toFixed(1)} MB/s, app ${pulledMbps(tunnel.app).toFixed(1)} MB/s`
    )
    console.log(`  ratio up app/OpenSSH:     ${verdict(up, SFTP_TARGET)}`)
    console.log(`  ratio down app/OpenSSH:   ${verdict(down, SFTP_TARGET)}`)
    console.log(`  ratio tunnel app/OpenSSH: ${verdict(through, TUNNEL_TARGET)}`)
    return up >= SFTP_TARGET && down >= SFTP_TARGET && through >= TUNNEL_TARGET ? 0 : 1
  } finally {
    proxy.child.removeAllListeners('exit')
    proxy.child.kill()
  }
}

runBench(() => withTrustedSshd('far-region', main))
