/**
 * The harness: runs the app's BUILT main process (build.ts) in a Node child process with the
 * `electron` module replaced by the recording stand-in (runtime/), and plays the user and the OS
 * against it. This is a stand-in: Electron itself never runs here. What it proves and what only a
 * real Electron run can is listed in src/main/README.md.
 *
 *   const app = await launchStandIn({ isPackaged: true })
 *   await app.invoke(app.mainWindow().webContentsId, 'session.login', { … })
 *   app.calls  // every recorded call, in order
 */
import { fork, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CommandName, CommandResult, EventName, Events, NoticeName, Result } from '../../src/shared/contract'
import { commandChannel, eventChannel, noticeChannel } from '../../src/shared/contract'
import type { CookieView, DialogView, FromApp, MenuItemView, RecordedCall, StandInOptions, WindowView } from './protocol'
import { OPTIONS_VARIABLE } from './protocol'

export const LABEL = '[electron-stand-in]'

export interface LaunchOptions extends Partial<Pick<StandInOptions, 'isPackaged' | 'keychain' | 'ptySpawnFails'>> {
  /** The build from ensureStandInBuild. */
  buildDir: string
  /** Files written into the data folder (userData) before start, by relative path. */
  dataFiles?: Record<string, string>
  /** Files written under XDG_CONFIG_HOME before start (e.g. an autostart entry). */
  configFiles?: Record<string, string>
  /**
   * Files in the installed app's resources folder (`process.resourcesPath`), as electron-builder
   * writes them: `app-update.yml` (the update feed), `package-type` (deb, rpm).
   */
  resources?: Record<string, string>
  /** A file where the data folder should be, so the app cannot create it (a start-up failure). */
  userDataIsFile?: boolean
  /** Environment variables for the app's process, set after the harness's own (e.g. ELECTRON_RENDERER_URL). */
  env?: Record<string, string>
  /**
   * Linux: the app gets a session bus of its own where a StatusNotifier host runs (true, the
   * default: KDE, Ubuntu's GNOME) or none does (false: vanilla GNOME). Elsewhere: ignored.
   */
  statusNotifierHost?: boolean
}

/** A private D-Bus session bus (Linux, where dbus-daemon exists), with a StatusNotifier host on it or not. */
async function privateBus(root: string, host: boolean): Promise<{ address: string; stop(): void } | undefined> {
  if (process.platform !== 'linux') return undefined
  const daemon = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1', `--address=unix:path=${join(root, 'bus')}`], {
    stdio: ['ignore', 'pipe', 'ignore']
  })
  const address = await new Promise<string | undefined>((resolve) => {
    daemon.once('error', () => resolve(undefined))
    daemon.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\n')[0]?.trim()))
  })
  if (!address) return undefined
  const { ownName } = await import('../../src/main/windows/dbus-call')
  const owner = host ? await ownName(address, 'org.kde.StatusNotifierWatcher') : undefined
  return {
    address,
    stop() {
      owner?.close()
      daemon.kill()
    }
  }
}

/**
 * The fuses a packaged build carries: exactly what the afterPack hook flips
 * (scripts/after-pack-fuses.cjs), by FuseV1Options name.
 */
export function packagedFuses(): Record<string, boolean> {
  const require = createRequire(import.meta.url)
  const { fuseConfig } = require('../after-pack-fuses.cjs') as { fuseConfig: Record<string, unknown> }
  const { FuseV1Options } = require('@electron/fuses') as { FuseV1Options: Record<string, string | number> }
  return Object.fromEntries(
    Object.entries(fuseConfig)
      .filter(([index, on]) => /^\d+$/.test(index) && typeof on === 'boolean')
      .map(([index, on]) => [String(FuseV1Options[index]), on as boolean])
  )
}

type Waiter = { test: (call: RecordedCall) => boolean; resolve: (call: RecordedCall) => void }

export class StandInApp {
  readonly calls: RecordedCall[] = []
  readonly exited: Promise<number | null>
  private readonly waiters = new Set<Waiter>()
  private readonly listeners = new Set<(call: RecordedCall) => void>()
  private readonly replies = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  private nextRequest = 1
  private output = ''

  constructor(
    private readonly child: ChildProcess,
    /** The app's data folder, its XDG config folder and HOME live under this. */
    readonly root: string,
    private readonly bus?: { stop(): void }
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()))
    child.on('message', (message: FromApp) => {
      if (message.type === 'call') {
        this.calls.push(message.call)
        for (const listener of this.listeners) listener(message.call)
        for (const waiter of [...this.waiters]) {
          if (waiter.test(message.call)) {
            this.waiters.delete(waiter)
            waiter.resolve(message.call)
          }
        }
      } else {
        const pending = this.replies.get(message.id)
        this.replies.delete(message.id)
        if (message.ok) pending?.resolve(message.value)
        else pending?.reject(new Error(`${LABEL} ${message.error}`))
      }
    })
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
    void this.exited.then(() => {
      for (const [, pending] of this.replies) pending.reject(new Error(`${LABEL} the app exited\n${this.tail()}`))
      this.replies.clear()
    })
  }

  get dataDir(): string {
    return join(this.root, 'userData')
  }
  get configHome(): string {
    return join(this.root, 'config')
  }
  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null
  }

  /** What the app printed, and the last recorded calls: for failure messages. */
  tail(count = 25): string {
    const calls = this.calls
      .slice(-count)
      .map((c) => `  ${c.at} ms ${c.api}${c.target ? ` ${c.target}` : ''} ${JSON.stringify(c.args).slice(0, 160)}`)
    return `${LABEL} last recorded calls:\n${calls.join('\n')}\n${LABEL} app output:\n${this.output.slice(-3000)}`
  }

  onCall(listener: (call: RecordedCall) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The first recorded call (already made, or to come) that passes `test`. */
  waitForCall(test: (call: RecordedCall) => boolean, what: string, timeoutMs = 10_000): Promise<RecordedCall> {
    const found = this.calls.find(test)
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        test,
        resolve: (call) => {
          clearTimeout(timer)
          resolve(call)
        }
      }
      const timer = setTimeout(() => {
        this.waiters.delete(waiter)
        reject(new Error(`${LABEL} ${what}: not within ${timeoutMs} ms\n${this.tail()}`))
      }, timeoutMs)
      this.waiters.add(waiter)
    })
  }

  /** Polls `probe` until it returns something other than undefined. */
  async until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await probe()
      if (value !== undefined) return value
      if (Date.now() > deadline) throw new Error(`${LABEL} ${what}: not within ${timeoutMs} ms\n${this.tail()}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  request<T>(op: string, ...args: unknown[]): Promise<T> {
    if (!this.alive) return Promise.reject(new Error(`${LABEL} the app is not running (${op})\n${this.tail()}`))
    const id = this.nextRequest++
    return new Promise<T>((resolve, reject) => {
      this.replies.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.child.send({ type: 'request', id, op, args })
    })
  }

  /** A contract command from a window's page, as the preload sends it (ipcRenderer.invoke). */
  invoke<C extends CommandName>(webContentsId: number, command: C, input?: unknown): Promise<Result<CommandResult<C>>> {
    return this.request('invoke', webContentsId, commandChannel(command), input)
  }

  /** A one-way notice from a window's page, as the preload sends it (ipcRenderer.send). */
  send<N extends NoticeName>(webContentsId: number, notice: N, input: unknown): Promise<void> {
    return this.request('send', webContentsId, noticeChannel(notice), input)
  }

  /** Payloads main sent to a webContents on an event channel, in order. */
  events<E extends EventName>(webContentsId: number, event: E): Events[E][] {
    const channel = eventChannel(event)
    return this.calls
      .filter((c) => c.api === 'webContents.send' && c.target === `webContents#${webContentsId}` && c.args[0] === channel)
      .map((c) => c.args[1] as Events[E])
  }

  windows(): Promise<WindowView[]> {
    return this.request('windows')
  }
  /** The app window: the one window created with our preload. */
  async mainWindow(): Promise<WindowView> {
    const created = await this.waitForCall(
      (c) =>
        c.api === 'BrowserWindow.new' &&
        typeof (c.args[0] as { webPreferences?: { preload?: string } }).webPreferences?.preload === 'string',
      'app window'
    )
    const id = Number(created.target?.replace('window#', ''))
    const window = (await this.windows()).find((w) => w.id === id)
    if (!window) throw new Error(`${LABEL} the app window #${id} is gone\n${this.tail()}`)
    return window
  }
  /** Someone launches the app again: Electron tells this instance (`second-instance`). */
  secondInstance(argv: string[] = []): Promise<void> {
    return this.request('secondInstance', argv)
  }
  closeWindow(id: number): Promise<void> {
    return this.request('closeWindow', id)
  }
  trayMenu(): Promise<MenuItemView[] | null> {
    return this.request('trayMenu')
  }
  clickTrayItem(...path: string[]): Promise<void> {
    return this.request('clickTrayItem', path)
  }
  applicationMenu(): Promise<MenuItemView[] | null> {
    return this.request('applicationMenu')
  }
  cookies(): Promise<CookieView[]> {
    return this.request('cookies')
  }
  /** Waits for a message box whose text matches, and returns it (still open). */
  dialog(match: RegExp, timeoutMs = 10_000): Promise<DialogView> {
    return this.until(
      `message box matching ${match}`,
      async () => (await this.request<DialogView[]>('dialogs')).find((d) => match.test(`${d.message}\n${d.detail ?? ''}`)),
      timeoutMs
    )
  }
  answerDialog(dialog: DialogView, button: string): Promise<void> {
    return this.request('answerDialog', dialog.id, button)
  }

  /** Ends the process (if still running) and removes its folders. */
  async stop(): Promise<void> {
    if (this.alive) {
      this.child.kill('SIGKILL')
      await this.exited
    }
    this.bus?.stop()
    rmSync(this.root, { recursive: true, force: true })
  }
}

export async function launchStandIn(options: LaunchOptions): Promise<StandInApp> {
  const root = mkdtempSync(join(tmpdir(), 'cloud-tray-stand-in-'))
  const userData = join(root, 'userData')
  const home = join(root, 'home')
  const configHome = join(root, 'config')
  for (const dir of [home, configHome]) mkdirSync(dir, { recursive: true })
  if (options.userDataIsFile) writeFileSync(userData, 'not a folder\n')
  else mkdirSync(userData)
  const place = (base: string, files: Record<string, string> = {}): void => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, path)), { recursive: true })
      writeFileSync(join(base, path), text)
    }
  }
  place(userData, options.dataFiles)
  place(configHome, options.configFiles)
  const resourcesPath = join(root, 'resources')
  mkdirSync(resourcesPath)
  place(resourcesPath, options.resources)
  const version = (JSON.parse(readFileSync(join(options.buildDir, '..', '..', '..', 'package.json'), 'utf8')) as { version: string })
    .version
  const standIn: StandInOptions = {
    userData,
    version,
    isPackaged: options.isPackaged ?? false,
    keychain: options.keychain ?? 'memory',
    resourcesPath,
    ...(options.ptySpawnFails ? { ptySpawnFails: true } : {}),
    ...(options.isPackaged ? { fuses: packagedFuses() } : {})
  }
  // A home of its own (HOME; USERPROFILE on Windows): the app reads ~/.ssh and must not see the real one.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    [OPTIONS_VARIABLE]: JSON.stringify(standIn),
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: configHome,
    XDG_CACHE_HOME: join(root, 'cache'),
    // The command line's socket (src/shared/node/cli-socket/place.ts) in this run's own home too.
    CLOUD_TRAY_RUNTIME_DIR: join(home, 'run')
  }
  delete env['ELECTRON_RENDERER_URL']
  delete env['SSH_AUTH_SOCK']
  delete env['NODE_OPTIONS']
  const bus = await privateBus(root, options.statusNotifierHost ?? true)
  if (bus) env['DBUS_SESSION_BUS_ADDRESS'] = bus.address
  Object.assign(env, options.env)
  const child = fork(join(options.buildDir, 'main', 'index.js'), [], {
    execArgv: ['--import', pathToFileURL(join(options.buildDir, 'stand-in', 'register.mjs')).href],
    env,
    cwd: root,
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc']
  })
  return new StandInApp(child, root, bus)
}
