/**
 * `npm run web [-- --port N] [--base-url URL] [--data-dir DIR] [--no-reach]`
 * Prints one line with the address to open, and runs until Ctrl+C or the tray's Quit.
 */
import { sandboxReach } from '../main/account/sandbox-emulator'
import { redactValue, SecretSet } from '../main/log'
import { installProcessGuard } from '../main/process-guard'
import { pinMainHeapGrowth } from '../main/heap-growth'
import { USAGE, parseWebArgs } from './cli-args'
import { startWebShell } from './server'

async function main(): Promise<void> {
  // Main's V8 heap setting, as in the desktop app (src/main/heap-growth.ts says why).
  pinMainHeapGrowth()
  // The last net, as in the desktop app (src/main/process-guard.ts says what goes on and why that
  // is safe): a failed promise nobody awaited, or a connection's error, is logged to the terminal
  // and the shell goes on; anything else is logged and ends it (exit status 70).
  // Redacted as the app log is (tokens, keys and passwords by their shape).
  const shown = (data: unknown): string => JSON.stringify(redactValue(data, new SecretSet()))
  installProcessGuard({
    log: {
      warn: (message, data) => console.error(`warning: ${message} ${shown(data)}`),
      error: (message, data) => console.error(`error: ${message} ${shown(data)}`)
    },
    fatal: () => process.exit(70)
  })
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
