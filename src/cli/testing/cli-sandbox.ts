/**
 * The web shell's core on the Sandbox (with reach: real SSH servers, files and ports), serving
 * the command line at a runtime folder of the test's own, signed in as demo unless asked not to:
 * what the command line's integration tests run the built `cloud-tray` against.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CommandName, CommandResult, EventName, Events } from '../../shared/contract'
import type { SshPrompt, TerminalStatus } from '../../shared/contract-ssh'
import { cliSocketPlace, type CliSocketPlace } from '../../shared/node/cli-socket/place'
import { sandboxReach } from '../../main/account/sandbox-emulator'
import type { ClientId } from '../../main/core-types'
import { startWebShell, type WebShell } from '../../web/server'
import { startCliSocket, type CliSocketServer } from '../../main/cli-socket/cli-socket-server'
import { runCli, type CliRun, type CliRunOptions } from './built-cli'

export interface CliSandbox {
  shell: WebShell
  /** The command line's socket, serving the shell's core. */
  socket: CliSocketServer
  runtimeDir: string
  place: CliSocketPlace
  call<C extends CommandName>(command: C, input?: unknown, clientId?: ClientId): Promise<CommandResult<C>>
  /** Seeds a Running instance of this name; answers its id once the app lists it. */
  seed(name: string, options?: { status?: string }): Promise<string>
  /** Accepts the instance's host key as a window would (open a terminal, answer the prompt). */
  trustHostKey(instanceId: string): Promise<void>
  cli(args: readonly string[], options?: Omit<CliRunOptions, 'runtimeDir'>): Promise<CliRun>
  close(): Promise<void>
}

/** A runtime folder as the app makes one: 0700, short enough for a socket path. */
export function runtimeFolder(): string {
  return mkdtempSync(join(tmpdir(), 'ct-run-'))
}

export function placeIn(runtimeDir: string): CliSocketPlace {
  return cliSocketPlace({ platform: process.platform, env: { CLOUD_TRAY_RUNTIME_DIR: runtimeDir }, home: tmpdir() })
}

export interface CliSandboxOptions {
  signedIn?: boolean
  bootMs?: number
}

export async function startCliSandbox(options: CliSandboxOptions = {}): Promise<CliSandbox> {
  // A stand-in page: these tests are about the command line, not the renderer's build.
  const rendererDir = mkdtempSync(join(tmpdir(), 'cloud-tray-renderer-'))
  mkdirSync(join(rendererDir, 'assets'))
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Cloud Tray</title>')
  const runtimeDir = runtimeFolder()
  const place = placeIn(runtimeDir)
  const shell = await startWebShell({ rendererDir, emulator: { bootMs: options.bootMs ?? 1000, stopMs: 300 }, reach: await sandboxReach() })
  const socket = (await startCliSocket({ core: shell.core, version: '0.0.0-test', place }))!
  const events: { event: EventName; payload: unknown; target: ClientId | undefined }[] = []
  const waiters = new Set<() => void>()
  shell.core.subscribe(<E extends EventName>(event: E, payload: Events[E], target?: ClientId) => {
    events.push({ event, payload, target })
    for (const wake of waiters) wake()
  })
  const until = async <T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = probe()
      if (value !== undefined) return value
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          waiters.delete(wake)
          resolve()
        }
        waiters.add(wake)
        setTimeout(wake, 100)
      })
    }
  }
  const call = async <C extends CommandName>(
    command: C,
    input?: unknown,
    clientId: ClientId = 'test-window'
  ): Promise<CommandResult<C>> => {
    const result = await shell.core.handle(command, input, { clientId })
    if (!result.ok) throw Object.assign(new Error(result.error.message), result.error)
    return result.value
  }
  if (options.signedIn !== false) {
    const profiles = await call('profiles.get')
    await call('session.login', { profileId: 'sandbox', username: 'demo', password: profiles.demoPassword ?? '', rememberMe: false })
  }
  let windows = 0
  return {
    shell,
    socket,
    runtimeDir,
    place,
    call,
    async seed(name, seedOptions = {}) {
      const [id] = (await shell
        .emulator()
        .seedInstances('demo', 1, { name, ...(seedOptions.status ? { status: seedOptions.status } : {}) })) as [string]
      await call('instances.refresh')
      return id
    },
    async trustHostKey(instanceId) {
      const clientId = `trust-window-${++windows}`
      const seen = events.length
      const { terminalId } = await call('ssh.open', { instanceId, cols: 80, rows: 24 }, clientId)
      const mine = () => events.slice(seen).filter((each) => each.target === clientId)
      const prompt = await until('a host-key prompt or a connection', () => {
        const found = mine().find(
          (each) => each.event === 'ssh.prompt' || (each.event === 'ssh.status' && (each.payload as TerminalStatus).state === 'connected')
        )
        return found ? found : undefined
      })
      if (prompt.event === 'ssh.prompt') {
        await call(
          'ssh.answer',
          { promptId: (prompt.payload as SshPrompt).promptId, answer: { kind: 'host-key', decision: 'accept-and-remember' } },
          clientId
        )
        await until('connected', () =>
          mine().find((each) => each.event === 'ssh.status' && (each.payload as TerminalStatus).state === 'connected')
        )
      }
      await call('ssh.close', { terminalId }, clientId)
      shell.core.clientGone(clientId)
    },
    cli: (args, runOptions = {}) => runCli(args, { ...runOptions, runtimeDir }),
    async close() {
      await socket.close()
      await shell.close()
      rmSync(rendererDir, { recursive: true, force: true })
      rmSync(runtimeDir, { recursive: true, force: true })
    }
  }
}
