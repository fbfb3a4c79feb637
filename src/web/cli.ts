/**
 * `npm run web [-- --port N] [--base-url URL] [--data-dir DIR] [--no-reach]`
 * Prints one line with the address to open, and runs until Ctrl+C or the tray's Quit.
 */
import { sandboxReach } from '../main/account/sandbox-emulator'
import { USAGE, parseWebArgs } from './cli-args'
import { startWebShell } from './server'

async function main(): Promise<void> {
  let options: ReturnType<typeof parseWebArgs>
  try {
    options = parseWebArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`)
    process.exit(2)
  }
  if (options.help) {
    console.log(USAGE)
    return
  }
  const { reachEnabled, help: _help, ...shellOptions } = options
  const reach = reachEnabled ? sandboxReach() : undefined
  let stopping = false
  const stop = (): void => {
    if (stopping) return
    stopping = true
    void shell.close().then(() => process.exit(0))
  }
  const shell = await startWebShell({
    ...shellOptions,
    keychain: 'os',
    ...(reach ? { reach } : {}),
    onQuit: stop,
    log: (line) => console.error(line)
  })
  console.log(`Cloud Tray (web) at ${shell.url}`)
  if (shell.cliSocket)
    console.error(`cloud-tray (the command line: node out/cli/cloud-tray.cjs after npm run build) reaches it at ${shell.cliSocket}`)
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(`npm run web failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
