/**
 * The command line of `npm run web`, parsed into WebShellOptions (kept apart from cli.ts so it
 * is testable without starting anything).
 */
import { parseArgs } from 'node:util'
import type { WebShellOptions } from './server'

export const USAGE = `Usage: npm run web -- [--port N] [--base-url URL] [--data-dir DIR] [--no-reach] [--no-cli]
  --port N         listen on 127.0.0.1:N (default: a free port)
  --base-url URL   use this cloud API instead of the built-in Sandbox
  --data-dir DIR   keep settings and Sandbox state here (default: a fresh temp folder per run)
  --no-reach       Sandbox instances get no SSH server, notebook page or port forwarders
  --no-cli         do not serve cloud-tray (the command line) on its local socket`

export function parseWebArgs(argv: string[]): WebShellOptions & { reachEnabled: boolean; help?: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'base-url': { type: 'string' },
      'data-dir': { type: 'string' },
      'no-reach': { type: 'boolean', default: false },
      'no-cli': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false }
    },
    strict: true
  })
  if (values.help) {
    return { help: true, reachEnabled: false }
  }
  const options: WebShellOptions & { reachEnabled: boolean; help?: boolean } = {
    reachEnabled: !values['no-reach'],
    cliSocket: !values['no-cli']
  }
  if (values.port !== undefined) {
    const port = Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`--port must be a number from 0 to 65535, not "${values.port}".`)
    options.port = port
  }
  if (values['base-url'] !== undefined) {
    const url = new URL(values['base-url'])
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('--base-url must be an http(s) address.')
    options.baseUrl = values['base-url'].replace(/\/+$/, '')
  }
  if (values['data-dir'] !== undefined) options.dataDir = values['data-dir']
  return options
}
