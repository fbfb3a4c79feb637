/**
 * One terminal pane: an xterm.js Terminal with its addons, bound to one `terminalId` in main. A
 * tab (terminal-tab.svelte.ts) holds one or more panes in its split layout.
 *
 * Terminal bytes never touch Svelte state: `ssh.data` goes straight to `term.write`, and the ack
 * is sent from xterm's write callback, i.e. once xterm has parsed those bytes (that is what
 * lets main's flow control hold a `yes` flood back instead of drowning the renderer). Only the
 * small things the toolbar shows (state, message, renderer, find results) are reactive; a write
 * only marks the pane's scrollback as changed, for the next save (serialize addon, on a timer).
 *
 * The pane's DOM element lives as long as the pane, so leaving the Terminal view and coming back
 * re-attaches the same xterm with its scrollback. It connects only when asked (`connect`): when
 * it is first shown, or at once for the tab that was active when the app closed.
 *
 * Its shell lives in a tmux session on the instance (`session`, made by main unless the profile
 * runs plain shells): after a dropped connection, a restart of the app or of the window it
 * attaches to the same session again.
 */
import { Terminal, type ITerminalOptions } from '@xterm/xterm'
import { FitAddon } from '@xterm/addon-fit'
import { SearchAddon } from '@xterm/addon-search'
import { Unicode11Addon } from '@xterm/addon-unicode11'
import { WebLinksAddon } from '@xterm/addon-web-links'
import { WebglAddon } from '@xterm/addon-webgl'
import { SerializeAddon } from '@xterm/addon-serialize'
import '@xterm/xterm/css/xterm.css'
import type { Persistence, SessionRef, TerminalState, TerminalStatus } from '../../../shared/contract-ssh'
import { SAVED_SCROLLBACK_LINES } from '../../../shared/contract-terminals'
import { call, send } from '../lib/bridge'
import { copyText } from '../lib/clipboard'
import { appSettings } from '../lib/settings.svelte'
import { toasts } from '../lib/toasts.svelte'
import { readOsc52 } from './osc'
import { ParsedAcks } from './parsed-acks'
import { PacedOutput, type PaneOutput } from './paced-output'
import { pageClock, paceRendering, type RenderPacer } from './render-pacing'
import { skipEmptySelectionRedraws } from './selection-redraw'
import { systemClock } from '../../../shared/clock'
import { planPaste, type PastePlan } from './paste'
import { statusLine } from './status-line'
import { clampFontSize, MINIMUM_CONTRAST_RATIO, TERMINAL_FONT_FAMILY, terminalTheme } from './terminal-theme'
import { paneKeyCommand, type PaneKeyCommand } from './terminal-keys'
import { throttle } from './throttle'
import type { Tone } from '../ui/tone'

export type TabState = TerminalState | 'opening'

/** Each state of a pane in the user's words and its tone (the toolbar's pill, the tab's dot). */
export const TAB_STATES: Record<TabState, { label: string; tone: Tone }> = {
  opening: { label: 'Connecting', tone: 'busy' },
  connecting: { label: 'Connecting', tone: 'busy' },
  connected: { label: 'Connected', tone: 'ok' },
  reconnecting: { label: 'Reconnecting', tone: 'busy' },
  closed: { label: 'Session ended', tone: 'muted' },
  failed: { label: 'Not connected', tone: 'bad' }
}

const SEARCH_DECORATIONS = {
  matchBackground: '#f2cc60',
  matchOverviewRuler: '#f2cc60',
  activeMatchBackground: '#ff9f1a',
  activeMatchColorOverviewRuler: '#ff9f1a'
}

/** The empty write that marks where xterm starts parsing a batch (writeNow). */
const PARSE_START = new Uint8Array(0)

/** Output quiet this long: the scrollback may be serialized for saving (scrollbackToSave). */
const OUTPUT_PAUSE_MS = 1_000
/** While output keeps coming, the scrollback is still saved this often. */
const SAVE_DURING_OUTPUT_MS = 30_000

/** Told which terminal in main is the pane's, so main's events for it reach it (terminals.svelte.ts). */
export interface PaneRouting {
  opened(terminalId: string, pane: TerminalPane): void
  closed(terminalId: string): void
  /** The pane's session changed (main named a new one): the tabs are saved again. */
  sessionChanged(pane: TerminalPane): void
}

/** A pane as it comes back after a restart: its id, its tmux session, its last scrollback. */
export interface PaneStart {
  paneId?: string
  session?: SessionRef | undefined
  scrollback?: string | undefined
}

/** Pane ids: letters, digits and dashes (contract-terminals.ts SAVED_ID), unique per window run and saved. */
export function newPaneId(): string {
  return `p-${crypto.randomUUID()}`
}

export class TerminalPane {
  /** Stable across restarts (it names the pane's saved scrollback). */
  readonly key: string
  readonly instanceId: string
  readonly element: HTMLDivElement
  terminalId: string | null = null

  // Reactive: what the toolbar and the tab strip show.
  title = $state('')
  state = $state<TabState>('opening')
  message = $state('')
  needsUser = $state(false)
  renderer = $state<'webgl' | 'dom'>('dom')
  searchResults = $state<{ index: number; count: number } | null>(null)
  /** A multi-line paste waiting for the user's confirmation. */
  pendingPaste = $state<PastePlan | null>(null)
  /** Columns × rows, shown in the status bar (and what main's PTY is told). */
  size = $state({ cols: 80, rows: 24 })
  /** Set when opening failed before a terminal existed in main (e.g. the instance stopped). */
  openError = $state<string | null>(null)
  /** The tmux session the pane's shell lives in (made by main at the first open, or restored). */
  session = $state<SessionRef | undefined>()
  /** Whether what runs here survives a dropped connection, as main last said. */
  persistence = $state<Persistence | undefined>()
  /** "Don't show again" or close was pressed on this pane's no-tmux notice. */
  noticeDismissed = $state(false)
  /** Whether a session was asked for (connect). */
  connecting = $state(false)

  private readonly term: Terminal
  private readonly routing: PaneRouting
  private readonly fit = new FitAddon()
  private readonly search = new SearchAddon()
  private readonly serializer = new SerializeAddon()
  private webgl: WebglAddon | undefined
  /** Paces xterm's redraws while output floods (render-pacing.ts); set once xterm is opened. */
  private renderPacer: RenderPacer | undefined
  private opened = false
  private disposed = false
  private toldClipboardBlocked = false
  /** The scrollback saved when the app last closed, until it is written (`showSaved`). */
  private savedScrollback: string | undefined
  /** Output arrived since the scrollback was last saved. */
  private changedSinceSave = false
  /** When output last arrived and when the scrollback was last serialized (performance.now()). */
  private lastOutputAt = Number.NEGATIVE_INFINITY
  private lastSavedAt = Number.NEGATIVE_INFINITY
  private readonly acks = new ParsedAcks((bytes, parseMs) => {
    if (this.terminalId && !this.disposed) send('ssh.ack', { terminalId: this.terminalId, bytes, parseMs })
  })
  /** What goes into xterm: paced while the pane is off screen (paced-output.ts). */
  private readonly output = new PacedOutput((output) => this.writeNow(output), systemClock())
  private readonly sendResize = throttle((cols: number, rows: number) => {
    if (this.terminalId) send('ssh.resize', { terminalId: this.terminalId, cols, rows })
  }, 100)

  constructor(
    instanceId: string,
    title: string,
    options: { fontSize: number; theme: 'light' | 'dark' },
    routing: PaneRouting,
    start: PaneStart = {}
  ) {
    this.key = start.paneId ?? newPaneId()
    this.instanceId = instanceId
    this.routing = routing
    this.title = title
    this.session = start.session
    this.element = document.createElement('div')
    this.element.className = 'xterm-host'
    const termOptions: ITerminalOptions = {
      fontSize: clampFontSize(options.fontSize),
      fontFamily: TERMINAL_FONT_FAMILY,
      theme: terminalTheme(options.theme),
      minimumContrastRatio: MINIMUM_CONTRAST_RATIO,
      scrollback: 10_000,
      // A clear (tmux's, as it attaches or when its shell exits; \`clear\`) moves what the screen
      // showed into the scrollback instead of erasing it, as PuTTY and VTE do: nothing is lost.
      scrollOnEraseInDisplay: true,
      cursorBlink: true,
      // Needed by the unicode11 addon (unicode.activeVersion).
      allowProposedApi: true,
      screenReaderMode: false,
      // OSC 8 hyperlinks a program prints go where clicked links go: main's check, http(s) only (osc.ts).
      linkHandler: {
        activate: (event, uri) => {
          event.preventDefault()
          void call('external.open', { url: uri })
        },
        allowNonHttpProtocols: false
      }
    }
    this.term = new Terminal(termOptions)
    this.term.loadAddon(this.fit)
    this.term.loadAddon(this.search)
    this.term.loadAddon(this.serializer)
    this.term.loadAddon(new Unicode11Addon())
    this.term.unicode.activeVersion = '11'
    this.term.loadAddon(
      new WebLinksAddon((event, uri) => {
        event.preventDefault()
        void call('external.open', { url: uri })
      })
    )
    this.search.onDidChangeResults(({ resultIndex, resultCount }) => {
      this.searchResults = resultCount > 0 ? { index: resultIndex, count: resultCount } : { index: -1, count: 0 }
    })
    // What a program may ask through OSC sequences (osc.ts): the clipboard only if the user
    // allows it, titles never (the tab keeps the instance's name).
    this.term.parser.registerOscHandler(52, (data) => this.onClipboardWrite(data))
    for (const title of [0, 1, 2]) this.term.parser.registerOscHandler(title, () => true)
    this.term.attachCustomKeyEventHandler((event) => this.onKey(event))
    this.term.onData((data) => this.onInput(data))
    this.term.onResize(({ cols, rows }) => {
      this.size = { cols, rows }
      this.sendResize(cols, rows)
    })
    // Take pastes before xterm does, to strip paste markers and confirm multi-line pastes.
    this.element.addEventListener('paste', (event) => this.onPasteEvent(event), { capture: true })
    // What it showed when the app last closed, parsed only once the pane is shown or connects
    // (twenty restored tabs never parse the scrollback of the nineteen not shown).
    this.savedScrollback = start.scrollback
  }

  /** Puts the terminal into `container` (first time: opens xterm). */
  attach(container: HTMLElement): void {
    if (this.disposed) return
    this.showSaved()
    container.append(this.element)
    if (!this.opened) {
      this.opened = true
      this.term.open(this.element)
      // Both reach into xterm 6.0's internals (see their files); each leaves xterm alone if they differ.
      this.renderPacer = paceRendering(this.term, pageClock())
      skipEmptySelectionRedraws(this.term)
      this.loadWebgl()
      this.fitNow()
      this.size = { cols: this.term.cols, rows: this.term.rows }
    } else {
      this.fitNow()
    }
  }

  /** Opens its session in main, once: when first shown, or at once for the tab active when the app closed. */
  connect(): void {
    if (this.connecting || this.disposed) return
    this.showSaved()
    this.connecting = true
    void this.openSession()
  }

  /**
   * The window's connection to main came back (web shell): main closed this window's terminals
   * when it went, so a pane whose shell lives in a tmux session attaches to it again.
   */
  reopen(): void {
    if (!this.connecting || this.disposed) return
    if (this.terminalId) this.routing.closed(this.terminalId)
    this.terminalId = null
    if (this.session) void this.openSession()
    else
      this.onStatus({
        terminalId: '',
        state: 'closed',
        message: 'the connection to Cloud Tray was lost, and this shell with it — press Reconnect for a new one'
      })
  }

  /** The saved scrollback goes into the terminal before anything the session draws. */
  private showSaved(): void {
    if (this.savedScrollback === undefined) return
    this.term.write(this.savedScrollback)
    this.savedScrollback = undefined
  }

  /**
   * Its scrollback as xterm's serialize addon writes it (the last SAVED_SCROLLBACK_LINES), when it
   * changed since last asked — and output has paused, or the last save is SAVE_DURING_OUTPUT_MS
   * old. Serializing thousands of lines holds the page's main thread in one task: every 2 s of
   * a flood that was taken from xterm's parsing, and whatever was typed waited behind it.
   */
  scrollbackToSave(now = performance.now()): string | undefined {
    if (!this.changedSinceSave) return undefined
    if (now - this.lastOutputAt < OUTPUT_PAUSE_MS && now - this.lastSavedAt < SAVE_DURING_OUTPUT_MS) return undefined
    this.changedSinceSave = false
    this.lastSavedAt = now
    return this.serializer.serialize({ scrollback: SAVED_SCROLLBACK_LINES })
  }

  detach(): void {
    this.setShown(false)
    this.element.remove()
  }

  /** On screen (its tab shown in the Terminal view) or not: TerminalPane.svelte says. */
  setShown(shown: boolean): void {
    this.output.setShown(shown)
  }

  fitNow(): void {
    if (!this.opened || !this.element.isConnected || this.element.clientWidth === 0) return
    try {
      this.fit.fit()
    } catch {
      // Not laid out yet; the next ResizeObserver tick fits it.
    }
  }

  focus(): void {
    this.term.focus()
  }

  setTheme(theme: 'light' | 'dark'): void {
    this.term.options.theme = terminalTheme(theme)
  }

  setFontSize(size: number): void {
    this.term.options.fontSize = clampFontSize(size)
    this.fitNow()
  }

  get fontSize(): number {
    return this.term.options.fontSize ?? 14
  }

  /** Bytes from main, for xterm: at once while the pane is shown, paced while it is not. */
  write(data: Uint8Array): void {
    this.changedSinceSave = true
    this.lastOutputAt = performance.now()
    this.output.push({ bytes: data })
  }

  /**
   * Into xterm now: main's bytes are acknowledged once parsed (one ack per parse slice, see
   * ParsedAcks), with the time their parse took: an empty write just before them marks its start
   * (xterm runs a write's callback as soon as it has parsed it, in order, within one slice).
   */
  private writeNow(output: PaneOutput): void {
    if ('line' in output) return this.term.write(output.line())
    const bytes = output.bytes.length
    this.renderPacer?.noteOutput(bytes)
    let startedAt = 0
    this.term.write(PARSE_START, () => (startedAt = performance.now()))
    this.term.write(output.bytes, () => this.acks.parsed(bytes, performance.now() - startedAt))
  }

  onStatus(status: TerminalStatus): void {
    this.state = status.state
    this.message = status.message
    this.needsUser = status.needsUser === true
    if (status.persistence) this.persistence = status.persistence
    this.changedSinceSave = true
    // After any output still waiting: the line starts where that leaves the cursor.
    this.output.push({ line: () => statusLine(status, this.atLineStart()) })
  }

  /** Whether the cursor sits at the start of a line (as far as xterm has parsed). */
  private atLineStart(): boolean {
    return this.term.buffer.active.cursorX === 0
  }

  async reconnect(): Promise<void> {
    if (!this.terminalId) {
      this.connecting = true
      await this.openSession()
      return
    }
    this.needsUser = false
    const result = await call('ssh.reconnect', { terminalId: this.terminalId })
    if (!result.ok) this.showProblem(result.error.message)
  }

  findNext(text: string, options: { caseSensitive: boolean; regex: boolean }): boolean {
    return this.search.findNext(text, { ...options, incremental: false, decorations: SEARCH_DECORATIONS })
  }

  findPrevious(text: string, options: { caseSensitive: boolean; regex: boolean }): boolean {
    return this.search.findPrevious(text, { ...options, decorations: SEARCH_DECORATIONS })
  }

  clearSearch(): void {
    this.search.clearDecorations()
    this.searchResults = null
    this.term.clearSelection()
  }

  confirmPaste(): void {
    const plan = this.pendingPaste
    this.pendingPaste = null
    if (plan) this.term.paste(plan.text)
    this.focus()
  }

  cancelPaste(): void {
    this.pendingPaste = null
    this.focus()
  }

  /** Text currently selected (for the Copy button). */
  selection(): string {
    return this.term.getSelection()
  }

  async copySelection(): Promise<boolean> {
    const text = this.term.getSelection()
    return text ? copyText(text) : false
  }

  /**
   * Paste button and Ctrl/⌘+Shift+V. The desktop app reads the clipboard in main (its page may
   * not: the permission policy denies clipboard-read); in a browser (`npm run web`) the page
   * asks the browser.
   */
  async pasteFromClipboard(): Promise<void> {
    const fromMain = await call('clipboard.read')
    if (fromMain.ok) return this.requestPaste(fromMain.value.text)
    try {
      this.requestPaste(await navigator.clipboard.readText())
    } catch {
      this.showProblem('The clipboard could not be read. Use your system paste shortcut (Ctrl+V or ⌘V) inside the terminal.')
    }
  }

  /** Closes the pane; its tmux session keeps running on the instance unless `end` ("End it"). */
  dispose(end = false): void {
    if (this.disposed) return
    this.disposed = true
    if (this.terminalId) this.routing.closed(this.terminalId)
    this.sendResize.cancel()
    this.output.dispose()
    this.renderPacer?.dispose()
    if (this.terminalId) void call('ssh.close', { terminalId: this.terminalId, ...(end ? { end: true } : {}) })
    this.webgl?.dispose()
    this.term.dispose()
    this.element.remove()
  }

  // ---------------------------------------------------------------- internals

  private async openSession(): Promise<void> {
    this.openError = null
    this.state = 'opening'
    const result = await call('ssh.open', {
      instanceId: this.instanceId,
      cols: this.term.cols,
      rows: this.term.rows,
      ...(this.session ? { session: this.session } : {})
    })
    if (this.disposed) {
      if (result.ok) void call('ssh.close', { terminalId: result.value.terminalId })
      return
    }
    if (!result.ok) {
      this.state = 'failed'
      this.needsUser = true
      this.openError = result.error.message
      this.showProblem(result.error.message)
      return
    }
    this.terminalId = result.value.terminalId
    this.routing.opened(this.terminalId, this)
    const session = result.value.session
    if (session && (session.name !== this.session?.name || session.socket !== this.session?.socket)) {
      this.session = session
      this.routing.sessionChanged(this)
    }
  }

  private showProblem(message: string): void {
    this.message = message
    this.output.push({ line: () => statusLine({ terminalId: this.terminalId ?? '', state: 'failed', message }, this.atLineStart()) })
  }

  private onInput(data: string): void {
    if (!this.terminalId) return
    if (this.state === 'connected') {
      // The keys reach the program after the size the user sees: a key pressed within the
      // resize throttle's interval must not find the program still at the old size.
      this.sendResize.flush()
      send('ssh.input', { terminalId: this.terminalId, data })
    } else if ((this.state === 'closed' || this.state === 'failed') && data === '\r') {
      // "press Enter to reconnect", as the status line says.
      void this.reconnect()
    }
  }

  /** OSC 52 from the program: done only with the setting on; said once per pane when it is off. */
  private onClipboardWrite(data: string): boolean {
    const request = readOsc52(data, appSettings.current?.terminalClipboardWrite === true)
    if (request.kind === 'write') void copyText(request.text)
    else if (request.why === 'blocked' && !this.toldClipboardBlocked) {
      this.toldClipboardBlocked = true
      toasts.show(
        'info',
        'A program tried to copy to your clipboard',
        'A program on the instance tried to set your clipboard; it was left as it was. To let programs do that (e.g. tmux or vim copying over SSH), turn on “Let programs in the terminal copy to the clipboard” in Settings.'
      )
    }
    return true
  }

  private onKey(event: KeyboardEvent): boolean {
    if (event.type !== 'keydown') return true
    const mod = event.ctrlKey || event.metaKey
    if (mod && event.shiftKey && event.code === 'KeyC') {
      event.preventDefault()
      void this.copySelection()
      return false
    }
    if (mod && event.shiftKey && event.code === 'KeyV') {
      event.preventDefault()
      void this.pasteFromClipboard()
      return false
    }
    if (mod && event.shiftKey && event.code === 'KeyF') {
      event.preventDefault()
      this.element.dispatchEvent(new CustomEvent('terminal-find', { bubbles: true }))
      return false
    }
    // The tab's own keys (terminal-keys.ts: split, move between panes, close, reconnect) go to the view.
    const command = paneKeyCommand(event)
    if (command) {
      event.preventDefault()
      this.element.dispatchEvent(new CustomEvent<PaneKeyCommand>('terminal-command', { bubbles: true, detail: command }))
      return false
    }
    return true
  }

  private onPasteEvent(event: ClipboardEvent): void {
    event.preventDefault()
    event.stopPropagation()
    this.requestPaste(event.clipboardData?.getData('text/plain') ?? '')
  }

  private requestPaste(raw: string): void {
    const plan = planPaste(raw)
    if (plan.text === '') return
    if (plan.needsConfirmation) this.pendingPaste = plan
    else this.term.paste(plan.text)
  }

  /**
   * WebGL when a GPU draws it; the DOM renderer when WebGL is missing, is a software
   * rasteriser (SwiftShader, llvmpipe: VMs, remote desktops, --disable-gpu), where each frame
   * costs more than parsing and output crawls, or when the context is lost later.
   */
  private loadWebgl(): void {
    if (!hardwareWebgl()) {
      this.renderer = 'dom'
      return
    }
    try {
      const webgl = new WebglAddon()
      webgl.onContextLoss(() => {
        webgl.dispose()
        this.webgl = undefined
        this.renderer = 'dom'
        this.term.refresh(0, this.term.rows - 1)
      })
      this.term.loadAddon(webgl)
      this.webgl = webgl
      this.renderer = 'webgl'
    } catch {
      this.webgl = undefined
      this.renderer = 'dom'
    }
  }
}

let hardwareWebglCache: boolean | undefined

/** Whether WebGL2 exists and is drawn by a GPU rather than a software rasteriser. */
function hardwareWebgl(): boolean {
  if (hardwareWebglCache !== undefined) return hardwareWebglCache
  let result = false
  try {
    const gl = document.createElement('canvas').getContext('webgl2')
    if (gl) {
      const info = gl.getExtension('WEBGL_debug_renderer_info')
      const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : ''
      result = !/swiftshader|llvmpipe|software|softpipe/i.test(name)
      gl.getExtension('WEBGL_lose_context')?.loseContext()
    }
  } catch {
    result = false
  }
  hardwareWebglCache = result
  return result
}
