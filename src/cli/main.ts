/**
 * `cloud-tray`: the command line of Cloud Tray. It talks to the running app over its local
 * socket (app-client.ts) and carries the window's own contract; it holds no session, no key and
 * no secret of its own, and reads none from its arguments or environment.
 */
import { homedir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { CommanderError } from 'commander'
import { currentCliSocketPlace } from '../shared/node/cli-socket/place'
import { CliError, EXIT } from './exit-codes'
import { stdio, type Io } from './output'
import { buildProgram } from './program'

const MIN_NODE = [20, 19]

function nodeTooOld(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
  return major < MIN_NODE[0]! || (major === MIN_NODE[0] && minor < MIN_NODE[1]!)
}

/** Waits until what was written to a pipe has left the process (process.exit would cut it short). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => (stream.writableLength === 0 ? resolve() : stream.write('', () => resolve())))
}

export async function main(argv: readonly string[], io: Io = stdio()): Promise<number> {
  if (nodeTooOld()) {
    io.err.write(`cloud-tray needs Node.js ${MIN_NODE.join('.')} or newer; this is ${process.versions.node}.\n`)
    return EXIT.failure
  }
  let code: number = EXIT.ok
  const cliFile = fileURLToPath(import.meta.url)
  const program = buildProgram({
    io,
    context: (start) => ({ io, place: currentCliSocketPlace(homedir()), start, cliFile }),
    exit: (exit) => (code = exit)
  })
  try {
    await program.parseAsync(argv as string[], { from: 'node' })
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end with exit 0; anything else commander refuses is a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage
    }
    if (error instanceof CliError) {
      io.err.write(`${error.message.replace(/\n*$/, '')}\n`)
      return error.code
    }
    io.err.write(`cloud-tray failed: ${error instanceof Error ? error.message : String(error)}\n`)
    return EXIT.failure
  }
  return code
}

// No top-level await: the bundle is CommonJS (vite.cli.config.ts).
void main(process.argv).then(async (code) => {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)])
  process.exit(code)
})
