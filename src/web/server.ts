/**
 * `npm run web`: the real main-process core in Node, the real renderer in any browser, joined by
 * the WebSocket transport, all on 127.0.0.1. The URL it prints carries a per-run secret; without
 * it the page cannot open the socket. Electron-only effects are recorded and shown on the page,
 * and the tray menu is a panel there (web-platform.ts). Tests start it with `startWebShell` and drive the Sandbox's emulator
 * through `emulator()`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock, type Clock } from '../shared/clock'
import type { SandboxAccess } from '../shared/contract'
import type { RecordedEffect } from '../shared/web/web-shell-events'
import { createMemoryKeychain, createOsKeychain } from '../main/account/keychain'
import type { EmulatorStartOptions, StartEmulator } from '../main/account/sandbox'
import { startSandboxEmulator, type EmulatorControl, type EmulatorOptions, type ReachFactory } from '../main/account/sandbox-emulator'
import { createAppCore } from '../main/core'
import { CliPlaceError, startCliSocket, type CliSocketServer } from '../main/cli-socket/cli-socket-server'
import { currentCliSocketPlace, type CliSocketPlace } from '../shared/node/cli-socket/place'
import { defaultSshEnvironment } from '../main/ssh/ssh-wing'
import { createNetworkRoute } from '../main/network/network-route'
import { createLogger, logDirFor } from '../main/log'
import type { AppCore, Keychain } from '../main/core-types'
import { attachWsTransport, type TransportCore } from './transport/ws-server'
import { createSecret } from '../shared/node/secret'
import { REPO_ROOT, ensureRendererBuild } from './renderer-build'
import { serveStatic } from './static-files'
import { createWebPlatform } from './web-platform'

export interface WebShellOptions {
  /** 0 or absent: a free port. */
  port?: number
  /** Use this API instead of the embedded Sandbox. */
  baseUrl?: string
  /** The app's data folder; absent: a fresh temp folder, removed on close. */
  dataDir?: string
  /** `os`: the system keychain (the CLI); `memory` (default for tests): nothing leaves the process. */
  keychain?: 'os' | 'memory' | Keychain
  /** Sandbox emulator timings (tests use a fast boot); `users` replaces the Sandbox's own account. */
  emulator?: Pick<EmulatorOptions, 'bootMs' | 'stopMs' | 'tokenTtlSeconds' | 'lockoutMs' | 'volumeReadyMs' | 'users'>
  /** Real SSH / notebook / port forwarders for Sandbox instances (src/emulator/reach). Default: off. */
  reach?: ReachFactory
  clock?: Clock
  /** Serve this folder instead of building the renderer (the render benchmark's own build). */
  rendererDir?: string
  /** The tray's "Quit"; default: close the shell. */
  onQuit?: () => void
  /**
   * Serves the command line (`cloud-tray`, src/cli) on its local socket: `true` at the user's
   * place (src/shared/node/cli-socket/place.ts), or at the place given (tests). Default: off.
   */
  cliSocket?: boolean | { place: CliSocketPlace }
  /** The desktop's handler for editor links (web-platform.ts); default: recorded and taken. */
  editorHandler?: (url: string) => Promise<void>
  /** Where the proxy is read from (`HTTPS_PROXY`, `NO_PROXY`…); default: this process's environment. */
  proxyEnvironment?: NodeJS.ProcessEnv
  /** A home folder standing in for the user's (its ~/.ssh/config is what "Add to ~/.ssh/config" writes); default: the user's own. */
  sshHome?: string
  log?: (line: string) => void
}

export interface WebShell {
  /** `http://127.0.0.1:N/#secret=…`: what a browser opens. */
  url: string
  /** `http://127.0.0.1:N` */
  origin: string
  core: AppCore
  dataDir: string
  /** The Sandbox's emulator controls; throws until the Sandbox has started. */
  emulator(): EmulatorControl
  /** The Sandbox's address, account and control plane, as Settings shows them; throws until it has started. */
  sandbox(): SandboxAccess
  /** What the pages list under "Would have opened outside the page", oldest first. */
  recorded(): RecordedEffect[]
  /** Where `cloud-tray` reaches this shell; undefined when it does not serve the command line. */
  cliSocket: string | undefined
  close(): Promise<void>
}

async function packageVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version?: string }
  return pkg.version ?? '0.0.0'
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

export async function startWebShell(options: WebShellOptions = {}): Promise<WebShell> {
  const log = options.log ?? (() => {})
  const ownDataDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'cloud-tray-web-')))
  const rendererDir = options.rendererDir ?? (await ensureRendererBuild(REPO_ROOT, log)).dir

  let control: EmulatorControl | undefined
  let access: SandboxAccess | undefined
  const startEmulator: StartEmulator = async (sandbox: EmulatorStartOptions) => {
    const emulatorOptions = { ...sandbox, ...options.emulator, ...(options.clock ? { clock: options.clock } : {}) }
    const emulator = await startSandboxEmulator(emulatorOptions)
    control = emulator.control
    const [user] = emulatorOptions.users
    access = {
      apiUrl: emulator.baseUrl,
      username: user!.username,
      password: user!.password,
      controlUrl: emulator.controlUrl,
      ...(emulator.controlSecretPath ? { controlSecretFile: emulator.controlSecretPath } : {})
    }
    return emulator
  }
  const notStarted = (): Error => new Error('The Sandbox emulator has not started (another profile is selected, or --base-url is set).')

  let closing: Promise<void> | undefined
  const keychain =
    options.keychain === 'os'
      ? createOsKeychain()
      : options.keychain === 'memory' || !options.keychain
        ? createMemoryKeychain()
        : options.keychain
  // The same main-process log as the desktop app, in the same place: <dataDir>/logs/main.log.
  const appLog = createLogger({ dir: logDirFor(dataDir) })
  const clock = options.clock ?? systemClock()
  const version = await packageVersion()
  const web = createWebPlatform({
    onQuit: () => (options.onQuit ? options.onQuit() : void close()),
    now: () => clock.now(),
    log,
    ...(options.editorHandler ? { editorHandler: options.editorHandler } : {})
  })
  const core = createAppCore({
    dataDir,
    log: appLog,
    platform: web.platform,
    keychain,
    version,
    startEmulator,
    // HTTPS_PROXY / NO_PROXY as curl reads them, and the OS's roots besides Node's.
    network: createNetworkRoute({
      log: (line) => appLog.info(line),
      ...(options.proxyEnvironment ? { env: options.proxyEnvironment } : {})
    }),
    ...(options.baseUrl !== undefined ? { baseUrlOverride: options.baseUrl } : {}),
    ...(options.reach ? { reach: options.reach } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.sshHome !== undefined ? { sshEnvironment: { ...defaultSshEnvironment(), homeDir: options.sshHome } } : {})
  })

  let port = 0
  const hosts = (): string[] => [`127.0.0.1:${port}`]
  const server = createServer((request, response) => {
    // A page on another name resolving to 127.0.0.1 (DNS rebinding) gets nothing.
    if (!hosts().includes(request.headers.host ?? '')) {
      response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Forbidden')
      return
    }
    if (transport.handleRequest(request, response)) return
    serveStatic(rendererDir, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end()
    })
  })
  // Pages hear the core's events and the web shell's own; everything else goes to the core as it is
  // at the time (a benchmark may wrap core.notice after start).
  const pageCore: TransportCore = {
    handle: (command, input, context) => core.handle(command, input, context),
    notice: (notice, input, context) => core.notice(notice, input, context),
    clientGone: (clientId) => core.clientGone(clientId),
    subscribe(sink) {
      const offs = [core.subscribe(sink), web.subscribe(sink)]
      return () => offs.forEach((off) => off())
    }
  }
  const secret = createSecret()
  const transport = attachWsTransport(server, {
    core: pageCore,
    welcome: (clientId) => web.welcome(clientId),
    secret,
    // The request handler above routes downlink requests to the transport.
    downlink: true,
    allowedOrigins: () => [`http://127.0.0.1:${port}`],
    allowedHosts: hosts
  })

  await core.start()
  port = await listen(server, options.port ?? 0)
  const origin = `http://127.0.0.1:${port}`
  const cli = options.cliSocket
    ? await serveCommandLine(core, version, options.cliSocket === true ? currentCliSocketPlace(homedir()) : options.cliSocket.place, log)
    : undefined

  const close = (): Promise<void> => {
    closing ??= (async () => {
      await cli?.close()
      await transport.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      // A data folder of its own goes away: so do the Sandbox instances' tmux sessions, which outlive the Sandbox.
      if (ownDataDir) await control?.endSessions().catch(() => undefined)
      await core.stop()
      appLog.close()
      // A Sandbox instance's shell, or one an ended tmux server leaves, may still be writing its
      // history into its home as it ends (SIGHUP): a folder that fills again is tried again (ENOTEMPTY).
      if (ownDataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    })()
    return closing
  }

  return {
    url: `${origin}/#secret=${secret}`,
    origin,
    core,
    dataDir,
    emulator() {
      if (!control) throw notStarted()
      return control
    },
    sandbox() {
      if (!access) throw notStarted()
      return access
    },
    recorded: () => web.recorded(),
    cliSocket: cli?.path,
    close
  }
}

/** The command line's socket; a place that is not safe is said and left alone (the shell runs without it). */
async function serveCommandLine(
  core: AppCore,
  version: string,
  place: CliSocketPlace,
  log: (line: string) => void
): Promise<CliSocketServer | undefined> {
  try {
    const served = await startCliSocket({ core, version, place, log: { info: () => undefined, warn: log } })
    if (!served) log(`cloud-tray: another Cloud Tray already serves the command line at ${place.path}; it talks to that one.`)
    return served
  } catch (error) {
    if (!(error instanceof CliPlaceError)) throw error
    log(`cloud-tray (the command line) is off: ${error.message}`)
    return undefined
  }
}
