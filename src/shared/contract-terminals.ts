/**
 * The terminal tabs' part of the contract that outlives the window: which tabs are open (their
 * instance, the title the user gave, their order, which one is active, their split layout, each
 * pane's tmux session) and each pane's last scrollback. Main keeps them in the data folder, saved
 * as they change, so a restart (after Quit, a crash, `kill -9` or an update) opens them again;
 * a sign-out deletes that account's tabs and scrollback.
 */
import type { SessionRef } from './contract-ssh'

/** A pane's place in its tab: one pane, or two side by side (`right`) or one above the other (`down`). */
export type PaneLayout =
  | { kind: 'pane'; paneId: string }
  | {
      kind: 'split'
      direction: 'right' | 'down'
      /** The first part's share of the space, 0.1–0.9. */
      ratio: number
      first: PaneLayout
      second: PaneLayout
    }

/** One terminal pane: its own shell (its own tmux session) on an instance, over that instance's shared link. */
export interface SavedPane {
  paneId: string
  instanceId: string
  /** The tmux session it lives in; absent: a plain shell (nothing to come back to but its scrollback). */
  session?: SessionRef
}

export interface SavedTab {
  tabId: string
  /** The instance whose terminal view lists the tab (its first pane's, when it was opened). */
  instanceId: string
  title: string
  /** The user renamed it: kept as it is. */
  titleByUser: boolean
  layout: PaneLayout
  panes: SavedPane[]
  activePaneId: string
  /** Whose tab it is (`profileId/username`); stamped by main. A tab of another account never connects. */
  account?: string
}

export interface SavedTerminals {
  /** Every open tab, in order (each instance's strip keeps this order). */
  tabs: SavedTab[]
  /** Per instance, its active tab. */
  activeTab: Record<string, string>
  /** The instance whose terminal was shown last: its active tab connects first after a restart. */
  lastInstanceId?: string
}

export interface RestoredTerminals extends SavedTerminals {
  /** The account signed in now (`profileId/username`), or null. */
  account: string | null
  /** Each pane's last scrollback (xterm's serialize addon), for the tabs of this account only. */
  scrollback: Record<string, string>
}

/** The most a pane's saved scrollback keeps (the end of it). */
export const MAX_SAVED_SCROLLBACK = 512 * 1024
/** Lines of scrollback a pane saves (the serialize addon's `scrollback`). */
export const SAVED_SCROLLBACK_LINES = 2_000
export const MAX_SAVED_TABS = 100
export const MAX_PANES_PER_TAB = 16
/** Tab and pane ids the renderer makes: letters, digits and dashes. */
export const SAVED_ID = /^[A-Za-z0-9-]{1,64}$/

export interface TerminalsCommands {
  /** The saved tabs and, for this account's panes, their scrollback. */
  'terminals.restore': { input: void; result: RestoredTerminals }
  /** Saves the whole set of open tabs (as they change); panes that are gone lose their saved scrollback. */
  'terminals.save': { input: SavedTerminals; result: void }
  /** Saves one pane's scrollback (a pane of a saved tab of this account). */
  'terminals.saveScrollback': { input: { paneId: string; data: string }; result: void }
}
