/**
 * `npm run emulator -- [--port N] [--control-port N] [--user NAME:PASSWORD]... [--state FILE]
 *  [--catalog FILE] [--boot-ms N] [--token-ttl SECONDS] [--ssh-key FILE.pub]... [--api-key USER:KEY]...
 *  [--ssh-backend HOST:PORT]`
 * Prints `Cloud emulator listening on http://127.0.0.1:N/api`, the control address and this
 * run's control secret, and serves until Ctrl-C.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'
import { parseCatalog, type Catalog } from './catalog'
import { DEFAULT_USERS, startEmulator, type Emulator, type EmulatorOptions } from './index'
import { createReach, parseSshBackend } from './reach/index'

export const USAGE = `Usage: npm run emulator -- [options]
  --port N               listen on 127.0.0.1:N (default: a free port)
  --control-port N       the control routes (/__emulator/) on 127.0.0.1:N (default: a free port)
  --user NAME:PASSWORD   an account (repeatable; default demo:demo)
  --state FILE           keep instances and volumes in FILE across restarts (and write
                         the control secret to control-secret beside it, mode 0600)
  --catalog FILE         regions, instance types and images from a JSON file
  --boot-ms N            Initializing -> Running takes N ms (default 6000)
  --token-ttl SECONDS    lifetime of issued tokens (default 86400)
  --ssh-key FILE.pub     register an SSH public key for the first user (repeatable)
  --api-key USER:KEY     accept KEY as USER's console API key, sent as X-API-Key (repeatable)
  --ssh-backend HOST:PORT  running instances' SSH ports forward to this SSH server
                         (e.g. OpenSSH) instead of the built-in one
  --help                 show this help`

/** Turns argv into options; throws an Error with a message for the user on bad input. */
export function parseCli(
  argv: string[],
  readText: (path: string) => string = (path) => readFileSync(path, 'utf8')
): EmulatorOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      'control-port': { type: 'string' },
      user: { type: 'string', multiple: true },
      state: { type: 'string' },
      catalog: { type: 'string' },
      'boot-ms': { type: 'string' },
      'token-ttl': { type: 'string' },
      'ssh-key': { type: 'string', multiple: true },
      'api-key': { type: 'string', multiple: true },
      'ssh-backend': { type: 'string' },
      help: { type: 'boolean' }
    }
  })
  if (values.help) return 'help'
  const options: EmulatorOptions = {}
  if (values.port !== undefined) options.port = integer(values.port, '--port', 0, 65535)
  if (values['control-port'] !== undefined) options.controlPort = integer(values['control-port'], '--control-port', 0, 65535)
  const users = (values.user ?? []).map((spec) => {
    const colon = spec.indexOf(':')
    if (colon <= 0 || colon === spec.length - 1) throw new Error(`--user needs NAME:PASSWORD, got "${spec}"`)
    return { username: spec.slice(0, colon), password: spec.slice(colon + 1) }
  })
  if (users.length > 0) options.users = users
  const apiKeys = (values['api-key'] ?? []).map((spec) => {
    const colon = spec.indexOf(':')
    if (colon <= 0 || colon === spec.length - 1) throw new Error(`--api-key needs USER:KEY, got "${spec.slice(0, 40)}"`)
    const username = spec.slice(0, colon)
    if (!(options.users ?? DEFAULT_USERS).some((user) => user.username === username)) {
      throw new Error(`--api-key names user "${username}", who is not one of the accounts (--user)`)
    }
    return { username, key: spec.slice(colon + 1) }
  })
  if (apiKeys.length > 0) options.apiKeys = apiKeys
  if (values.state !== undefined) options.statePath = values.state
  if (values.catalog !== undefined) options.catalog = loadCatalog(values.catalog, readText)
  if (values['boot-ms'] !== undefined) options.bootMs = integer(values['boot-ms'], '--boot-ms', 0, 3_600_000)
  if (values['token-ttl'] !== undefined) options.tokenTtlSeconds = integer(values['token-ttl'], '--token-ttl', 1, 365 * 86_400)
  const keyFiles = values['ssh-key'] ?? []
  if (keyFiles.length > 0) {
    const owner = (options.users ?? DEFAULT_USERS)[0]!.username
    const lines = keyFiles.flatMap((file) => {
      let text: string
      try {
        text = readText(file)
      } catch (error) {
        throw new Error(`--ssh-key ${file} could not be read: ${(error as Error).message}`, { cause: error })
      }
      const keys = text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'))
      if (keys.length === 0) throw new Error(`--ssh-key ${file} holds no public key line`)
      if (keys.some((line) => /PRIVATE KEY/.test(line))) throw new Error(`--ssh-key ${file} is a private key; pass the .pub file`)
      return keys
    })
    options.sshKeys = { [owner]: lines }
  }
  // Running instances are reachable for real (SSH, notebook page, node ports): see ./reach.
  const sshBackend = values['ssh-backend']
  options.reach = createReach(sshBackend === undefined ? {} : { sshBackend: parseSshBackend(sshBackend) })
  return options
}

function loadCatalog(path: string, readText: (path: string) => string): Catalog {
  let text: string
  try {
    text = readText(path)
  } catch (error) {
    throw new Error(`--catalog ${path} could not be read: ${(error as Error).message}`, { cause: error })
  }
  return parseCatalog(text, `--catalog ${path}`)
}

function integer(text: string, flag: string, min: number, max: number): number {
  const value = Number(text)
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new Error(`${flag} needs a whole number from ${min} to ${max}, got "${text}"`)
  return value
}

async function main(): Promise<void> {
  let options: EmulatorOptions | 'help'
  try {
    options = parseCli(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`)
    process.exit(2)
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  let emulator: Emulator
  try {
    emulator = await startEmulator({ ...options, log: (line) => process.stderr.write(`${line}\n`) })
  } catch (error) {
    process.stderr.write(`The emulator could not start: ${(error as Error).message}\n`)
    process.exit(1)
  }
  const users = (options.users ?? DEFAULT_USERS).map((user) => user.username).join(', ')
  process.stdout.write(`Cloud emulator listening on ${emulator.baseUrl}\n`)
  process.stdout.write(`Users: ${users}. Control: ${emulator.controlUrl}/ (catalog: GET ${emulator.controlUrl}/catalog)\n`)
  // The dev tool's user started it by hand and reads its output; the secret is theirs to use.
  process.stdout.write(`Control secret (send "Authorization: Bearer <secret>"): ${emulator.controlSecret}\n`)
  if (emulator.controlSecretPath) process.stdout.write(`Control secret written to ${emulator.controlSecretPath}\n`)
  const stop = (): void => {
    void emulator.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main()
