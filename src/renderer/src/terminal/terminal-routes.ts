/**
 * Which tab each of main's terminals belongs to, for routing its events (`ssh.data`,
 * `ssh.status`) to the right tab. A tab learns its terminal id from the `ssh.open` answer, and a
 * transport may deliver the terminal's first events before that answer: those wait here, up to
 * MAX_EARLY per terminal, and are replayed in order when the tab registers.
 */

export const MAX_EARLY = 256

export class TerminalRoutes<Tab> {
  private readonly byTerminalId = new Map<string, Tab>()
  private readonly early = new Map<string, ((tab: Tab) => void)[]>()

  /** `tab` owns `terminalId` from now on; events that came early are run for it now. */
  register(terminalId: string, tab: Tab): void {
    this.byTerminalId.set(terminalId, tab)
    const waiting = this.early.get(terminalId)
    this.early.delete(terminalId)
    for (const action of waiting ?? []) action(tab)
  }

  unregister(terminalId: string): void {
    this.byTerminalId.delete(terminalId)
  }

  /** Runs `action` for the terminal's tab now, or once it registers. */
  deliver(terminalId: string, action: (tab: Tab) => void): void {
    const tab = this.byTerminalId.get(terminalId)
    if (tab !== undefined) return action(tab)
    const waiting = this.early.get(terminalId) ?? []
    if (waiting.length < MAX_EARLY) waiting.push(action)
    this.early.set(terminalId, waiting)
  }
}
