/**
 * One terminal tab: its panes (each its own shell, or its own tmux session, over its instance's
 * shared link; panes may be on different instances) in a split layout (pane-layout.ts), which one
 * has the focus, and the title the user gave it. The tab is listed in its instance's terminal view
 * (the instance of its first pane). What is saved for the next start is `toSaved()`.
 */
import type { PaneLayout, SavedTab } from '../../../shared/contract-terminals'
import { paneIdsOf, paneTowards, removePane, setRatio, splitPane, type Direction, type SplitPath } from './pane-layout'
import type { TerminalPane } from './terminal-pane.svelte'

export interface TabStart {
  tabId?: string
  title: string
  titleByUser?: boolean
  layout?: PaneLayout
  activePaneId?: string
  /** Whose tab (`profileId/username`), as main stamped it. */
  account?: string | undefined
}

export function newTabId(): string {
  return `t-${crypto.randomUUID()}`
}

export class TerminalTab {
  readonly key: string
  readonly instanceId: string
  title = $state('')
  titleByUser = $state(false)
  layout = $state<PaneLayout>({ kind: 'pane', paneId: '' })
  panes = $state<TerminalPane[]>([])
  activePaneKey = $state('')
  /** Its panes are in the page (it was shown once): a restored tab is drawn only when first shown. */
  shown = $state(false)
  readonly account: string | undefined

  constructor(instanceId: string, panes: TerminalPane[], start: TabStart) {
    this.key = start.tabId ?? newTabId()
    this.instanceId = instanceId
    this.title = start.title
    this.titleByUser = start.titleByUser === true
    this.panes = panes
    const first = panes[0]!
    this.layout = start.layout ?? { kind: 'pane', paneId: first.key }
    this.activePaneKey = start.activePaneId && panes.some((pane) => pane.key === start.activePaneId) ? start.activePaneId : first.key
    this.account = start.account
  }

  get activePane(): TerminalPane {
    return this.pane(this.activePaneKey) ?? this.panes[0]!
  }

  pane(key: string): TerminalPane | undefined {
    return this.panes.find((pane) => pane.key === key)
  }

  /** Panes in the order the layout draws them. */
  get orderedPanes(): TerminalPane[] {
    return paneIdsOf(this.layout).flatMap((key) => this.pane(key) ?? [])
  }

  /** `pane` goes beside (`right`) or under (`down`) the active pane and takes the focus. */
  addSplit(pane: TerminalPane, direction: 'right' | 'down'): void {
    this.layout = splitPane(this.layout, this.activePaneKey, pane.key, direction)
    this.panes = [...this.panes, pane]
    this.activePaneKey = pane.key
  }

  /** Takes `pane` out of the layout; true when it was the last one (the tab closes). */
  removePane(pane: TerminalPane): boolean {
    const rest = removePane(this.layout, pane.key)
    this.panes = this.panes.filter((each) => each !== pane)
    if (!rest) return true
    this.layout = rest
    if (this.activePaneKey === pane.key) this.activePaneKey = paneIdsOf(rest)[0]!
    return false
  }

  resize(path: SplitPath, ratio: number): void {
    this.layout = setRatio(this.layout, path, ratio)
  }

  /** The pane in `direction` from the active one takes the focus; undefined at the edge. */
  focusTowards(direction: Direction): TerminalPane | undefined {
    const next = paneTowards(this.layout, this.activePaneKey, direction)
    if (next) this.activePaneKey = next
    return next ? this.pane(next) : undefined
  }

  /** Whether any pane's shell lives in a tmux session (closing then asks: leave it running, or end it). */
  get keepsSessions(): boolean {
    return this.panes.some((pane) => pane.session !== undefined && pane.persistence?.kind !== 'plain')
  }

  toSaved(): SavedTab {
    return {
      tabId: this.key,
      instanceId: this.instanceId,
      title: this.title,
      titleByUser: this.titleByUser,
      layout: $state.snapshot(this.layout) as PaneLayout,
      panes: this.panes.map((pane) => ({
        paneId: pane.key,
        instanceId: pane.instanceId,
        ...(pane.session ? { session: $state.snapshot(pane.session) } : {})
      })),
      activePaneId: this.activePaneKey,
      ...(this.account ? { account: this.account } : {})
    }
  }
}
