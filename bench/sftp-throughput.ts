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
import './plays-main'
import type { OpenSshServer } from '../src/main/ssh/testing/openssh-server'
import { numberArgument, runBench, withTrustedSshd } from './run-bench'
import { compareSftp } from './transfer-rigs'

const TARGET_RATIO = 0.9
const MIB = numberArgument('--mib', 256)
const BYTES = MIB * 1024 * 1024

async function main(server: OpenSshServer, scratch: string): Promise<number> {
  const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3)
  const { mbps, sftpUp, sftpDown, appUp, appDown } = await compareSftp(server, scratch, { bytes: BYTES, rounds })
  const up = mbps(appUp) / mbps(sftpUp)
  const down = mbps(appDown) / mbps(sftpDown)
  console.log(`sftp-throughput: ${MIB} MiB up and down, best of ${rounds} interleaved rounds, connection included`)
  console.log(`  up:   OpenSSH sftp put (reference) ${mbps(sftpUp).toFixed(1)} MB/s, app ${mbps(appUp).toFixed(1)} MB/s`)
  console.log(`  down: OpenSSH sftp get (reference) ${mbps(sftpDown).toFixed(1)} MB/s, app ${mbps(appDown).toFixed(1)} MB/s`)
  const verdict = (ratio: number): string => `${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'PASS' : 'FAIL'}`
  console.log(`  ratio up app/OpenSSH:   ${verdict(up)}`)
  console.log(`  ratio down app/OpenSSH: ${verdict(down)}`)
  return up >= TARGET_RATIO && down >= TARGET_RATIO ? 0 : 1
}

runBench(() => withTrustedSshd('sftp-throughput', main))
