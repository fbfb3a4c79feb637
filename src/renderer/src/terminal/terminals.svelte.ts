/**
 * The renderer's terminals: tabs per instance (kept when the user leaves the Terminal view, so
 * coming back finds the same shells and scrollback), which tab is active, and the prompts main
 * asks while connecting. It routes main's terminal events: one subscription per event sends
 * `ssh.data` and `ssh.status` to the tab that owns the terminal (terminal-routes.ts), and queues
 * `ssh.prompt` for the dialog.
 */
import type { SshPrompt } from '../../../shared/contract-ssh'
import { on } from '../lib/bridge'
import { TerminalTab, type TabRouting } from './terminal-tab.svelte'
import { TerminalRoutes } from './terminal-routes'

/** What the dialog for each kind of question main asks is titled. */
export const PROMPT_TITLES: Record<SshPrompt['kind'], string> = {
  'host-key': 'Unknown host key',
  'host-key-changed': 'WARNING: the host key has changed',
  passphrase: 'Key passphrase',
  password: 'Password',
  'keyboard-interactive': 'The server asks'
}

class TerminalStore {
  tabs = $state<Record<string, TerminalTab[]>>({})
  active = $state<Record<string, string>>({})
  /** Questions from main, oldest first; the dialog shows the first. */
  prompts = $state<SshPrompt[]>([])
  private listening = false
  private readonly routes = new TerminalRoutes<TerminalTab>()
  private readonly routing: TabRouting = {
    opened: (terminalId, tab) => this.routes.register(terminalId, tab),
    closed: (terminalId) => this.routes.unregister(terminalId)
  }

  /** Starts routing main's events (idempotent). */
  listen(): void {
    if (this.listening) return
    this.listening = true
    on('ssh.data', ({ terminalId, data }) => this.routes.deliver(terminalId, (tab) => tab.write(data)))
    on('ssh.status', (status) => this.routes.deliver(status.terminalId, (tab) => tab.onStatus(status)))
    on('ssh.prompt', (prompt) => {
      this.prompts = [...this.prompts, prompt]
    })
  }

  tabsOf(instanceId: string): TerminalTab[] {
    return this.tabs[instanceId] ?? []
  }

  activeTab(instanceId: string): TerminalTab | undefined {
    const key = this.active[instanceId]
    return this.tabsOf(instanceId).find((tab) => tab.key === key) ?? this.tabsOf(instanceId)[0]
  }

  newTab(instanceId: string, instanceName: string, options: { fontSize: number; theme: 'light' | 'dark' }): TerminalTab {
    this.listen()
    const existing = this.tabsOf(instanceId)
    const title = existing.length === 0 ? instanceName : `${instanceName} (${existing.length + 1})`
    const tab = new TerminalTab(instanceId, title, options, this.routing)
    this.tabs = { ...this.tabs, [instanceId]: [...existing, tab] }
    this.active = { ...this.active, [instanceId]: tab.key }
    return tab
  }

  select(instanceId: string, key: string): void {
    this.active = { ...this.active, [instanceId]: key }
  }

  closeTab(tab: TerminalTab): void {
    const remaining = this.tabsOf(tab.instanceId).filter((other) => other !== tab)
    tab.dispose()
    this.tabs = { ...this.tabs, [tab.instanceId]: remaining }
    if (this.active[tab.instanceId] === tab.key && remaining.length > 0) {
      this.active = { ...this.active, [tab.instanceId]: (remaining.at(-1) as TerminalTab).key }
    }
  }

  /** Every tab that waits for the user tries again (after the old key of a changed host was removed). */
  reconnectWaiting(): void {
    for (const tabs of Object.values(this.tabs)) for (const tab of tabs) if (tab.needsUser) void tab.reconnect()
  }

  /** Removes the first prompt once answered. */
  answered(promptId: string): void {
    this.prompts = this.prompts.filter((prompt) => prompt.promptId !== promptId)
  }
}

export const terminals = new TerminalStore()
