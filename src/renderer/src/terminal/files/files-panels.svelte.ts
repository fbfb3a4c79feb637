/**
 * The files panels: one per instance (kept when the user leaves the Terminal view, like its
 * tabs), each with its SFTP session, the folder shown, its entries and selection, and its
 * transfers. One subscription per `files.*` event routes main's messages to the panel or
 * transfer they belong to. If the web shell's connection drops, main has closed this window's
 * sessions and transfers: the transfers say so, and the panels open new sessions once it is back.
 */
import type { FilesState, RemoteEntry, TransferItem } from '../../../../shared/contract-files'
import { call, on, onConnectionState, send } from '../../lib/bridge'
import { formatBytes } from '../../lib/format'
import type { Collected } from './collect'
import { joinPath, parentPath, sortEntries } from './entries'
import { DownloadReceiver, TransferView, UploadSender } from './transfers.svelte'
import type { Tone } from '../../ui/tone'

/** A panel's connection: main's states, and `opening` before main has answered. */
export type PanelState = FilesState | 'opening'

/** Each state of a panel in the user's words and its tone (the panel's pill). */
export const PANEL_STATES: Record<PanelState, { label: string; tone: Tone }> = {
  opening: { label: 'Connecting', tone: 'busy' },
  connecting: { label: 'Connecting', tone: 'busy' },
  connected: { label: 'Connected', tone: 'ok' },
  reconnecting: { label: 'Reconnecting', tone: 'busy' },
  failed: { label: 'Not connected', tone: 'bad' }
}

interface Routed {
  view: TransferView
  panel: FilesPanel
  sender?: UploadSender
  receiver?: DownloadReceiver
}

export class FilesPanel {
  sessionId = $state<string | null>(null)
  state = $state<PanelState>('opening')
  message = $state('')
  needsUser = $state(false)
  home = $state<string | null>(null)
  cwd = $state<string | null>(null)
  entries = $state<RemoteEntry[]>([])
  loading = $state(false)
  error = $state<string | null>(null)
  /** What main left out of the folder shown (names no file can have). */
  note = $state<string | null>(null)
  selected = $state<string[]>([])
  transfers = $state<TransferView[]>([])

  constructor(
    readonly instanceId: string,
    private readonly router: FilesRouter
  ) {}

  async open(): Promise<void> {
    this.state = 'opening'
    this.message = 'connecting…'
    const result = await call('files.open', { instanceId: this.instanceId })
    if (!result.ok) {
      this.state = 'failed'
      this.message = result.error.message
      this.needsUser = true
      return
    }
    this.sessionId = result.value.sessionId
    this.router.sessions.set(result.value.sessionId, this)
  }

  /** Main's word on the session: connected (with the home folder), reconnecting, failed. */
  status(state: FilesState, message: string, home: string | undefined, needsUser: boolean): void {
    this.state = state
    this.message = message
    this.needsUser = needsUser
    if (state !== 'connected') return
    if (home) this.home = home
    void this.go(this.cwd ?? this.home ?? '/')
  }

  async go(path: string): Promise<void> {
    if (!this.sessionId) return
    this.loading = true
    const result = await call('files.list', { sessionId: this.sessionId, path })
    this.loading = false
    if (!result.ok) {
      this.error = result.error.message
      return
    }
    this.error = null
    this.note = result.value.note ?? null
    if (result.value.path !== this.cwd) this.selected = []
    this.cwd = result.value.path
    this.entries = sortEntries(result.value.entries)
    this.selected = this.selected.filter((name) => this.entries.some((entry) => entry.name === name))
  }

  up(): Promise<void> {
    return this.go(parentPath(this.cwd ?? '/'))
  }

  refresh(): Promise<void> {
    return this.go(this.cwd ?? this.home ?? '/')
  }

  toggle(name: string, on: boolean): void {
    this.selected = on ? [...new Set([...this.selected, name])] : this.selected.filter((each) => each !== name)
  }

  /** Runs a folder operation; its error (in words) is the answer, null when it worked. */
  async act(
    command: 'mkdir' | 'rename' | 'delete',
    names: { name?: string; from?: string; to?: string; names?: string[] }
  ): Promise<string | null> {
    if (!this.sessionId || !this.cwd) return 'The files panel is not connected.'
    const sessionId = this.sessionId
    const at = (name: string): string => joinPath(this.cwd!, name)
    const result =
      command === 'mkdir'
        ? await call('files.mkdir', { sessionId, path: at(names.name!) })
        : command === 'rename'
          ? await call('files.rename', { sessionId, from: at(names.from!), to: at(names.to!) })
          : await call('files.delete', { sessionId, paths: names.names!.map(at) })
    await this.refresh()
    return result.ok ? null : result.error.message
  }

  /** Uploads what was picked or dropped into the folder shown. */
  async upload(collected: Collected<Blob>, replace: boolean): Promise<void> {
    if (!this.sessionId || !this.cwd) return
    const view = this.track('upload', collected.items)
    const result = await call('files.upload', { sessionId: this.sessionId, folder: this.cwd, items: collected.items, replace })
    if (!result.ok) return view.fail(result.error.message)
    const sender = new UploadSender(view, result.value.transferId, collected.items, collected.files)
    view.transferId = result.value.transferId
    this.router.transfers.set(result.value.transferId, { view, panel: this, sender })
    await sender.run()
  }

  /** Downloads the selected entries into `folder` (picked by the user). */
  async download(names: readonly string[], folder: FileSystemDirectoryHandle): Promise<void> {
    if (!this.sessionId || !this.cwd) return
    const result = await call('files.download', { sessionId: this.sessionId, paths: names.map((name) => joinPath(this.cwd!, name)) })
    if (!result.ok) return this.failedToStart(names, result.error.message)
    const view = this.track('download', result.value.items, folder.name)
    const receiver = new DownloadReceiver(view, result.value.transferId, result.value.items, folder)
    view.transferId = result.value.transferId
    this.router.transfers.set(result.value.transferId, { view, panel: this, receiver })
    try {
      await receiver.prepare()
    } catch (error) {
      view.fail(`Could not prepare the folder on this computer: ${(error as Error).message}.`)
      await call('files.cancel', { transferId: result.value.transferId })
    }
  }

  /** Electron: main asks for the folder (the OS's dialog) and writes the download there; the view shows its progress. */
  async downloadHere(names: readonly string[]): Promise<void> {
    if (!this.sessionId || !this.cwd) return
    const result = await call('files.downloadToFolder', {
      sessionId: this.sessionId,
      paths: names.map((name) => joinPath(this.cwd!, name))
    })
    if (!result.ok) return this.failedToStart(names, result.error.message)
    if (result.value.canceled) return
    const view = this.track('download', result.value.items, result.value.folder)
    view.transferId = result.value.transferId
    this.router.transfers.set(result.value.transferId, { view, panel: this })
    // Following its progress now: main may start.
    send('files.saved', { transferId: result.value.transferId, bytes: 0 })
  }

  /** A download main refused before anything moved: shown as a failed transfer of what was chosen. */
  private failedToStart(names: readonly string[], message: string): void {
    this.track(
      'download',
      names.map((name) => ({ path: name, kind: 'file', size: 0 }))
    ).fail(message)
  }

  async cancel(view: TransferView): Promise<void> {
    if (view.transferId) await call('files.cancel', { transferId: view.transferId })
  }

  dismiss(view: TransferView): void {
    this.transfers = this.transfers.filter((each) => each !== view)
  }

  close(): void {
    if (this.sessionId) void call('files.close', { sessionId: this.sessionId })
    this.sessionId = null
  }

  /** The web shell's connection dropped: the session and transfers are gone on main's side. */
  lost(): void {
    for (const view of this.transfers) view.fail('The connection to Cloud Tray was lost during the transfer. Try again.')
    this.sessionId = null
    this.state = 'reconnecting'
    this.message = 'reconnecting to Cloud Tray…'
  }

  private track(direction: 'upload' | 'download', items: readonly TransferItem[], folder?: string): TransferView {
    const files = items.filter((item) => item.kind === 'file')
    const total = files.reduce((sum, item) => sum + item.size, 0)
    const first = items[0]?.path.split('/')[0] ?? ''
    const tops = new Set(items.map((item) => item.path.split('/')[0]))
    const what = tops.size > 1 ? `${first} and ${tops.size - 1} more` : first
    const view = new TransferView(direction, `${what} (${formatBytes(total)})`, total, items.length, folder)
    this.transfers = [...this.transfers, view]
    return view
  }
}

class FilesRouter {
  readonly sessions = new Map<string, FilesPanel>()
  readonly transfers = new Map<string, Routed>()
  private readonly panels = new Map<string, FilesPanel>()
  /** Whether the panel shows beside an instance's terminal. */
  visible = $state<Record<string, boolean>>({})
  private listening = false

  panel(instanceId: string): FilesPanel {
    this.listen()
    let panel = this.panels.get(instanceId)
    if (!panel) {
      panel = new FilesPanel(instanceId, this)
      this.panels.set(instanceId, panel)
      // Not now: this may run while a view derives what to show, where state must not change.
      const opening = panel
      queueMicrotask(() => void opening.open())
    }
    return panel
  }

  show(instanceId: string, shown: boolean): void {
    this.visible = { ...this.visible, [instanceId]: shown }
  }

  private listen(): void {
    if (this.listening) return
    this.listening = true
    on('files.status', ({ sessionId, state, message, home, needsUser }) =>
      this.sessions.get(sessionId)?.status(state, message, home, needsUser ?? false)
    )
    on('files.written', ({ transferId, bytes }) => this.transfers.get(transferId)?.sender?.onWritten(bytes))
    on('files.data', ({ transferId, item, offset, data }) => this.transfers.get(transferId)?.receiver?.push(item, offset, data))
    on('files.transfer', (progress) => {
      const routed = this.transfers.get(progress.transferId)
      if (!routed) return
      if (progress.state === 'running') return routed.view.progress(progress)
      this.transfers.delete(progress.transferId)
      routed.sender?.stop()
      void this.settle(routed, progress)
    })
    let wasDown = false
    onConnectionState((state) => {
      if (state === 'reconnecting') {
        wasDown = true
        for (const panel of this.panels.values()) panel.lost()
        for (const routed of this.transfers.values()) {
          routed.sender?.stop()
          void routed.receiver?.abort()
        }
        this.transfers.clear()
        this.sessions.clear()
      } else if (state === 'open' && wasDown) {
        wasDown = false
        for (const panel of this.panels.values()) void panel.open()
      }
    })
  }

  /** A transfer ended: a download is done once its last bytes are on disk; then the folder is listed again. */
  private async settle(routed: Routed, progress: Parameters<TransferView['progress']>[0]): Promise<void> {
    if (routed.receiver) {
      if (progress.state === 'done') await routed.receiver.idle()
      else await routed.receiver.abort()
      if (routed.receiver.failed) return
    }
    routed.view.progress(progress)
    if (routed.view.direction === 'upload') await routed.panel.refresh()
  }
}

export const filesPanels = new FilesRouter()
