/**
 * The renderer's terminals: tabs per instance (kept when the user leaves the Terminal view, so
 * coming back finds the same shells and scrollback), each tab's panes, which tab is active, and
 * the prompts main asks while connecting. It routes main's terminal events: one subscription per
 * event sends `ssh.data` and `ssh.status` to the pane that owns the terminal (terminal-routes.ts),
 * and queues `ssh.prompt` for the dialog.
 *
 * The tabs outlive the app: every change of the set (a tab or pane opened or closed, a split
 * resized, a rename, the active tab) is saved in main (`terminals.save`, debounced), and each
 * pane's scrollback every few seconds while it changes (xterm's serialize addon). After a start
 * they come back (`restore`): the tab that was active connects at once, the others when shown; a
 * tab of another account, or on an instance that is not running, does not connect and the window
 * says why.
 */
import type { SshPrompt, SessionRef } from '../../../shared/contract-ssh'
import type { RestoredTerminals, SavedTerminals } from '../../../shared/contract-terminals'
import { call, on, onConnectionState } from '../lib/bridge'
import { appSettings } from '../lib/settings.svelte'
import { TerminalPane, type PaneRouting } from './terminal-pane.svelte'
import { TerminalTab } from './terminal-tab.svelte'
import { TerminalRoutes } from './terminal-routes'

/** What the dialog for each kind of question main asks is titled. */
export const PROMPT_TITLES: Record<SshPrompt['kind'], string> = {
  'host-key': 'Unknown host key',
  'host-key-changed': 'WARNING: the host key has changed',
  passphrase: 'Key passphrase',
  password: 'Password',
  'keyboard-interactive': 'The server asks'
}

/** How long after the last change the tabs are saved. */
const SAVE_DELAY_MS = 300
/** How often changed scrollback is saved. */
const SCROLLBACK_EVERY_MS = 2_000

type PaneLook = { fontSize: number; theme: 'light' | 'dark' }

class TerminalStore {
  tabs = $state<Record<string, TerminalTab[]>>({})
  active = $state<Record<string, string>>({})
  /** Questions from main, oldest first; the dialog shows the first. */
  prompts = $state<SshPrompt[]>([])
  /** Tabs kept for later: another account's (they never connect here). */
  private elsewhere: TerminalTab[] = []
  /** The instance whose terminal was shown last: its active tab connects first after a restart. */
  private lastInstanceId: string | undefined
  /** The account whose tabs this window holds; null: nothing restored (signed out), nothing saved. */
  account = $state<string | null>(null)
  private listening = false
  private saveTimer: ReturnType<typeof setTimeout> | undefined
  /** The last save of the tabs, until main has answered it (scrollback waits for it: saveScrollback). */
  private savingTabs: Promise<void> = Promise.resolve()
  private savingScrollback = false
  private readonly routes = new TerminalRoutes<TerminalPane>()
  private readonly routing: PaneRouting = {
    opened: (terminalId, pane) => this.routes.register(terminalId, pane),
    closed: (terminalId) => this.routes.unregister(terminalId),
    sessionChanged: () => this.changed()
  }

  /** Starts routing main's events (idempotent). */
  listen(): void {
    if (this.listening) return
    this.listening = true
    on('ssh.data', ({ terminalId, data }) => this.routes.deliver(terminalId, (pane) => pane.write(data)))
    on('ssh.status', (status) => this.routes.deliver(status.terminalId, (pane) => pane.onStatus(status)))
    on('ssh.prompt', (prompt) => {
      this.prompts = [...this.prompts, prompt]
    })
    // The web shell's socket came back: main closed this window's terminals meanwhile.
    let wasDown = false
    onConnectionState((state) => {
      if (state === 'reconnecting') wasDown = true
      if (state === 'open' && wasDown) {
        wasDown = false
        for (const pane of this.allPanes()) pane.reopen()
      }
    })
    setInterval(() => void this.saveScrollback(), SCROLLBACK_EVERY_MS)
  }

  tabsOf(instanceId: string): TerminalTab[] {
    return this.tabs[instanceId] ?? []
  }

  activeTab(instanceId: string): TerminalTab | undefined {
    const key = this.active[instanceId]
    return this.tabsOf(instanceId).find((tab) => tab.key === key) ?? this.tabsOf(instanceId)[0]
  }

  /** A new tab on the instance (attached to `session` when given: a job's, or one the instance's panel lists). */
  newTab(instanceId: string, instanceName: string, look: PaneLook, session?: SessionRef): TerminalTab {
    this.listen()
    const existing = this.tabsOf(instanceId)
    const title = session ? session.name : existing.length === 0 ? instanceName : `${instanceName} (${existing.length + 1})`
    const pane = new TerminalPane(instanceId, instanceName, look, this.routing, session ? { session } : {})
    const tab = new TerminalTab(instanceId, [pane], { title, account: this.account ?? undefined })
    this.tabs = { ...this.tabs, [instanceId]: [...existing, tab] }
    this.active = { ...this.active, [instanceId]: tab.key }
    this.changed()
    return tab
  }

  /** Shows the tab that has `session`, or opens one for it. */
  showSession(instanceId: string, instanceName: string, look: PaneLook, session: SessionRef): TerminalTab {
    const found = this.tabsOf(instanceId).find((tab) =>
      tab.panes.some((pane) => pane.session?.socket === session.socket && pane.session.name === session.name)
    )
    if (found) {
      this.select(instanceId, found.key)
      return found
    }
    return this.newTab(instanceId, instanceName, look, session)
  }

  /** A new pane beside (or under) the tab's active one, on `instanceId` (the tab's own by default). */
  split(tab: TerminalTab, direction: 'right' | 'down', look: PaneLook, on?: { instanceId: string; name: string }): TerminalPane {
    const instanceId = on?.instanceId ?? tab.activePane.instanceId
    const pane = new TerminalPane(instanceId, on?.name ?? tab.activePane.title, look, this.routing)
    tab.addSplit(pane, direction)
    this.changed()
    return pane
  }

  select(instanceId: string, key: string): void {
    this.active = { ...this.active, [instanceId]: key }
    this.changed()
  }

  /** The instance's terminal view is showing. */
  viewShown(instanceId: string): void {
    if (this.lastInstanceId === instanceId) return
    this.lastInstanceId = instanceId
    this.changed()
  }

  rename(tab: TerminalTab, title: string): void {
    const trimmed = title.trim().slice(0, 200)
    tab.title = trimmed === '' ? tab.activePane.title : trimmed
    tab.titleByUser = trimmed !== ''
    this.changed()
  }

  resized(): void {
    this.changed()
  }

  /** Closes one pane (its session kept unless `end`); the last pane closes the tab. */
  closePane(tab: TerminalTab, pane: TerminalPane, end = false): void {
    pane.dispose(end)
    if (tab.removePane(pane)) this.dropTab(tab)
    this.changed()
  }

  /** Closes a tab: each pane's tmux session keeps running on the instance unless `end`. */
  closeTab(tab: TerminalTab, end = false): void {
    for (const pane of tab.panes) pane.dispose(end)
    this.dropTab(tab)
    this.changed()
  }

  /** Every pane that waits for the user tries again (after the old key of a changed host was removed). */
  reconnectWaiting(): void {
    for (const pane of this.allPanes()) if (pane.needsUser) void pane.reconnect()
  }

  /** Removes the first prompt once answered. */
  answered(promptId: string): void {
    this.prompts = this.prompts.filter((prompt) => prompt.promptId !== promptId)
  }

  /**
   * After a sign-in: the saved tabs come back. The tab that was active connects at once when its
   * instance runs; the others wait to be shown. Another account's tabs stay closed (kept for it).
   * Answers what the window should say about tabs that cannot connect now.
   */
  async restore(runningOf: (instanceId: string) => boolean): Promise<RestoredTerminals | undefined> {
    this.listen()
    const result = await call('terminals.restore')
    if (!result.ok) return undefined
    const restored = result.value
    // Tabs opened before the answer came (or a second sign-in) stay as they are.
    if (this.account !== null || Object.values(this.tabs).some((tabs) => tabs.length > 0)) {
      this.account = restored.account
      return undefined
    }
    const look: PaneLook = { fontSize: appSettings.current?.terminalFontSize ?? 14, theme: appSettings.theme }
    const tabs: Record<string, TerminalTab[]> = {}
    this.elsewhere = []
    for (const saved of restored.tabs) {
      const panes = saved.panes.map(
        (pane) =>
          new TerminalPane(pane.instanceId, saved.title, look, this.routing, {
            paneId: pane.paneId,
            session: pane.session,
            scrollback: restored.scrollback[pane.paneId]
          })
      )
      const tab = new TerminalTab(saved.instanceId, panes, {
        tabId: saved.tabId,
        title: saved.title,
        titleByUser: saved.titleByUser,
        layout: saved.layout,
        activePaneId: saved.activePaneId,
        account: saved.account
      })
      if (saved.account !== undefined && saved.account !== restored.account) this.elsewhere.push(tab)
      else tabs[saved.instanceId] = [...(tabs[saved.instanceId] ?? []), tab]
    }
    this.tabs = tabs
    this.active = { ...restored.activeTab }
    this.lastInstanceId = restored.lastInstanceId
    this.account = restored.account
    const first = restored.lastInstanceId !== undefined ? this.activeTab(restored.lastInstanceId) : undefined
    if (first && runningOf(first.instanceId)) for (const pane of first.panes) if (runningOf(pane.instanceId)) pane.connect()
    return restored
  }

  /** Another account's tabs this window keeps for it (they never connect here). */
  get otherAccountTabs(): readonly TerminalTab[] {
    return this.elsewhere
  }

  /** Forgets tabs that cannot come back (another account's, or on an instance gone for good). */
  forget(tabs: readonly TerminalTab[]): void {
    const gone = new Set(tabs)
    this.elsewhere = this.elsewhere.filter((tab) => !gone.has(tab))
    for (const tab of tabs) if (!this.elsewhere.includes(tab)) this.closeTab(tab)
    this.changed()
  }

  /** Signed out: the window's tabs close (their sessions keep running); main has deleted what it saved of them. */
  signedOut(): void {
    this.account = null
    clearTimeout(this.saveTimer)
    this.saveTimer = undefined
    for (const pane of this.allPanes()) pane.dispose()
    this.tabs = {}
    this.active = {}
    this.elsewhere = []
  }

  // ------------------------------------------------------------------ internals

  private allPanes(): TerminalPane[] {
    return Object.values(this.tabs).flatMap((tabs) => tabs.flatMap((tab) => tab.panes))
  }

  private dropTab(tab: TerminalTab): void {
    const remaining = this.tabsOf(tab.instanceId).filter((other) => other !== tab)
    this.tabs = { ...this.tabs, [tab.instanceId]: remaining }
    if (this.active[tab.instanceId] === tab.key && remaining.length > 0) {
      this.active = { ...this.active, [tab.instanceId]: (remaining.at(-1) as TerminalTab).key }
    }
  }

  /** The set of tabs changed: saved shortly (a burst of changes is one save). */
  private changed(): void {
    if (this.account === null) return
    clearTimeout(this.saveTimer)
    this.saveTimer = setTimeout(() => void this.saveTabsNow(), SAVE_DELAY_MS)
  }

  /** The tabs' save that waits for its timer goes now; resolves once main has answered the last one. */
  private saveTabsNow(): Promise<void> {
    if (this.saveTimer !== undefined) {
      clearTimeout(this.saveTimer)
      this.saveTimer = undefined
      // A save that fails (the socket down) is not retried here: the next change saves again.
      this.savingTabs = this.save().catch(() => undefined)
    }
    return this.savingTabs
  }

  private async save(): Promise<void> {
    if (this.account === null) return
    const tabs = [...Object.values(this.tabs).flat(), ...this.elsewhere]
    const activeTab: Record<string, string> = {}
    for (const [instanceId, key] of Object.entries(this.active))
      if (this.tabsOf(instanceId).some((tab) => tab.key === key)) activeTab[instanceId] = key
    const saved: SavedTerminals = {
      tabs: tabs.map((tab) => tab.toSaved()),
      activeTab,
      ...(this.lastInstanceId ? { lastInstanceId: this.lastInstanceId } : {})
    }
    await call('terminals.save', saved)
  }

  /**
   * Each pane whose output changed since its last save: its scrollback now. Main keeps scrollback
   * only for a pane of a tab it has saved, so the tabs' own save goes first and is answered: a
   * new tab's first scrollback sent ahead of it was dropped, and not sent again until more output.
   */
  private async saveScrollback(): Promise<void> {
    if (this.account === null || this.savingScrollback) return
    this.savingScrollback = true
    try {
      await this.saveTabsNow()
      for (const pane of this.allPanes()) {
        const data = pane.scrollbackToSave()
        if (data !== undefined) await call('terminals.saveScrollback', { paneId: pane.key, data })
      }
    } finally {
      this.savingScrollback = false
    }
  }
}

export const terminals = new TerminalStore()
