/**
 * A window's terminal tabs over a whole core, for integration tests: each terminal's `ssh.data`
 * goes into a headless xterm (@xterm/headless, the renderer's parser) and is acknowledged with
 * `ssh.ack` once parsed, as the renderer's tab does; statuses are kept; host-key prompts are
 * accepted. Hand `onEvent` to startSandboxCore, then `bind` the core.
 */
import type { Terminal as Xterm } from '@xterm/headless'
import type { EventName, Events } from '../../shared/contract'
import type { SshPrompt, TerminalStatus } from '../../shared/contract-ssh'
import type { AppCore, ClientId } from '../core-types'
import { HeadlessScreens } from '../ssh/testing/headless-screens'
import { Waiters } from '../ssh/testing/waiters'

export class TerminalView {
  readonly statuses: TerminalStatus[] = []
  readonly prompts: SshPrompt[] = []
  private core: AppCore | undefined
  private readonly screens: HeadlessScreens
  private readonly waiters = new Waiters()

  constructor(
    readonly clientId: ClientId = 'window-1',
    size = { cols: 100, rows: 20 }
  ) {
    this.screens = new HeadlessScreens(() => size)
  }

  bind(core: AppCore): void {
    this.core = core
  }

  readonly onEvent = (event: EventName, payload: unknown, target: ClientId | undefined): void => {
    if (target !== this.clientId) return
    if (event === 'ssh.data') {
      const { terminalId, data } = payload as Events['ssh.data']
      this.screen(terminalId).write(data, () => {
        this.core?.notice('ssh.ack', { terminalId, bytes: data.length }, { clientId: this.clientId })
        this.waiters.wake()
      })
    } else if (event === 'ssh.status') {
      this.statuses.push(payload as TerminalStatus)
    } else if (event === 'ssh.prompt') {
      const prompt = payload as SshPrompt
      this.prompts.push(prompt)
      if (prompt.kind === 'host-key')
        setImmediate(
          () =>
            void this.core?.handle(
              'ssh.answer',
              { promptId: prompt.promptId, answer: { kind: 'host-key', decision: 'accept-and-remember' } },
              { clientId: this.clientId }
            )
        )
    }
    this.waiters.wake()
  }

  screen(terminalId: string): Xterm {
    return this.screens.screen(terminalId)
  }

  lines(terminalId: string): string[] {
    return this.screens.lines(terminalId)
  }

  lastStatus(terminalId: string): TerminalStatus | undefined {
    return this.statuses.filter((status) => status.terminalId === terminalId).at(-1)
  }

  type(terminalId: string, data: string): void {
    this.core?.notice('ssh.input', { terminalId, data }, { clientId: this.clientId })
  }

  /** The tab changes size, as the renderer's does: its xterm first, then main hears of it. */
  resize(terminalId: string, cols: number, rows: number): void {
    this.screen(terminalId).resize(cols, rows)
    this.core?.notice('ssh.resize', { terminalId, cols, rows }, { clientId: this.clientId })
  }

  waitFor(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    return this.waiters.waitFor(check, what, timeoutMs, () => {
      const last = this.statuses.at(-1)
      return `last status: ${last ? `${last.state}: ${last.message}` : 'none'}`
    })
  }

  waitForState(terminalId: string, state: TerminalStatus['state'], timeoutMs?: number): Promise<void> {
    return this.waitFor(() => this.lastStatus(terminalId)?.state === state, `state ${state}`, timeoutMs)
  }
}
