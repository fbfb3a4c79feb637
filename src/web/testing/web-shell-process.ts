/**
 * `npm run web` as a child process for tests that kill it (`kill -9`): the same startWebShell on
 * the data folder given as the first argument, the Sandbox with reach (real SSH servers, tmux),
 * a memory keychain, and no renderer build (the test is the page). Prints the address line as
 * the CLI does. SIGTERM ends the Sandbox instances' tmux sessions, then closes.
 *
 *   node --import tsx src/web/testing/web-shell-process.ts <dataDir>
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sandboxReach } from '../../main/account/sandbox-emulator'
import { startWebShell } from '../server'

const dataDir = process.argv[2]
if (!dataDir) {
  console.error('usage: web-shell-process.ts <dataDir>')
  process.exit(2)
}
const rendererDir = await mkdtemp(join(tmpdir(), 'cloudtray-no-renderer-'))
const shell = await startWebShell({
  dataDir,
  rendererDir,
  reach: sandboxReach(),
  keychain: 'memory',
  emulator: { bootMs: 300, stopMs: 100 }
})
console.log(`Cloud Tray (web) at ${shell.url}`)
process.on('SIGTERM', () => {
  void (async () => {
    await shell
      .emulator()
      .endSessions()
      .catch(() => undefined)
    await shell.close()
    process.exit(0)
  })()
})
