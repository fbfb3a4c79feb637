/**
 * Drives the terminals (terminals.ts) the way a renderer would, for tests and benchmarks: records events per
 * client, decodes each terminal's bytes, acknowledges them (at once, or when told), answers
 * prompts with a policy, and waits for output with a deadline instead of sleeping. With `useXterm`,
 * each terminal's bytes also go into a headless xterm (@xterm/headless, the renderer's own parser)
 * and are acknowledged once it parsed them, as a tab does: its buffer is what the tab shows.
 */
import { TextDecoder } from 'node:util'
import type { Terminal as Xterm } from '@xterm/headless'
import type { Events, EventName } from '../../../shared/contract'
import type { PromptAnswer, SshPrompt, TerminalStatus } from '../../../shared/contract-ssh'
import type { Clock } from '../../../shared/clock'
import type { ClientId, EventSink } from '../../core-types'
import { SshLinks, type SshLinksOptions } from '../links/links'
import { Terminals, type TerminalsOptions } from '../terminals'
import { HeadlessScreens } from './headless-screens'
import { Waiters } from './waiters'

type TerminalKnobs = Pick<TerminalsOptions, 'parseWindow'>

/** Terminals over links of their own, as the SSH wing builds them (ssh-wing.ts). */
export interface TerminalRig {
  terminals: Terminals
  links: SshLinks
  /** Quit, in the wing's order: the terminals, then the connections. */
  dispose(): void
}

export class TerminalHarness {
  terminals!: Terminals
  links!: SshLinks
  readonly clientId: ClientId = 'client-1'
  readonly prompts: SshPrompt[] = []
  readonly statuses: TerminalStatus[] = []
  /** Events that went to another client (must stay empty: bytes go only to the owner). */
  readonly misrouted: string[] = []
  /** How prompts are answered; undefined leaves them open. */
  answerPrompt: (prompt: SshPrompt) => PromptAnswer | undefined = () => undefined
  /** false: bytes are acknowledged only by `ackPending`. */
  autoAck = true
  private readonly text = new Map<string, string>()
  /** A `run` session's stderr, apart (contract-ssh.ts: `stream: 'stderr'`). */
  private readonly errorText = new Map<string, string>()
  /** `ssh.written` credit per terminal. */
  readonly written = new Map<string, number>()
  private readonly unacked = new Map<string, number>()
  private readonly decoders = new Map<string, TextDecoder>()
  private readonly waiters = new Waiters()
  bytesReceived = 0
  /** Constructor names of the `ssh.data` payloads seen. */
  readonly dataTypes = new Set<string>()
  /** Byte sink for benchmarks: when set, text is not decoded or kept. */
  onBytes: ((terminalId: string, data: Uint8Array) => void) | undefined
  /** Set before opening: each terminal gets a headless xterm of this size (see `screen`). */
  useXterm: { cols: number; rows: number; scrollback?: number } | undefined
  private readonly screens = new HeadlessScreens(() => this.useXterm ?? { cols: 80, rows: 24 })

  readonly emit: EventSink = <E extends EventName>(event: E, payload: Events[E], target?: ClientId) => {
    if (event.startsWith('ssh.') && target !== this.clientId) this.misrouted.push(event)
    if (event === 'ssh.data') {
      const { terminalId, data, stream } = payload as Events['ssh.data']
      this.bytesReceived += data.length
      this.dataTypes.add(data.constructor.name)
      if (this.onBytes) this.onBytes(terminalId, data)
      else if (stream === 'stderr')
        this.errorText.set(terminalId, (this.errorText.get(terminalId) ?? '') + Buffer.from(data).toString('utf8'))
      else {
        let decoder = this.decoders.get(terminalId)
        if (!decoder) this.decoders.set(terminalId, (decoder = new TextDecoder('utf-8')))
        this.text.set(terminalId, (this.text.get(terminalId) ?? '') + decoder.decode(data, { stream: true }))
      }
      if (this.useXterm) {
        // Acknowledged once parsed, as the renderer's ParsedAcks does.
        this.screen(terminalId).write(data, () => {
          // A notice for a terminal closed meanwhile is dropped, as the dispatcher drops it.
          if (this.autoAck) ignoreClosed(() => this.terminals.ack(terminalId, data.length, this.clientId))
          else this.unacked.set(terminalId, (this.unacked.get(terminalId) ?? 0) + data.length)
          this.waiters.wake()
        })
      } else if (this.autoAck) this.terminals.ack(terminalId, data.length, this.clientId)
      else this.unacked.set(terminalId, (this.unacked.get(terminalId) ?? 0) + data.length)
    } else if (event === 'ssh.written') {
      const { terminalId, bytes } = payload as Events['ssh.written']
      this.written.set(terminalId, (this.written.get(terminalId) ?? 0) + bytes)
    } else if (event === 'ssh.status') {
      this.statuses.push(payload as TerminalStatus)
    } else if (event === 'ssh.prompt') {
      const prompt = payload as SshPrompt
      this.prompts.push(prompt)
      const answer = this.answerPrompt(prompt)
      if (answer) setImmediate(() => this.links.answer(prompt.promptId, answer, this.clientId))
    }
    this.waiters.wake()
  }

  /** Terminals over `links`, reporting to this harness. */
  attach(links: SshLinks, clock: Clock, knobs: TerminalKnobs = {}): Terminals {
    this.links = links
    this.terminals = new Terminals({ links, clock, emit: this.emit, ...knobs })
    return this.terminals
  }

  /** Links made from `options` and terminals over them, both reporting to this harness. */
  connect(options: Omit<SshLinksOptions, 'emit'>, knobs: TerminalKnobs = {}): TerminalRig {
    const links = new SshLinks({ ...options, emit: this.emit })
    const terminals = this.attach(links, options.clock, knobs)
    return {
      terminals,
      links,
      dispose: () => {
        terminals.dispose()
        links.dispose()
      }
    }
  }

  /** The terminal's headless xterm (with `useXterm`): what its tab would show. */
  screen(terminalId: string): Xterm {
    return this.screens.screen(terminalId)
  }

  /** Every line of the terminal's xterm buffer, scrollback and screen, as text (parsed so far). */
  screenLines(terminalId: string): string[] {
    return this.screens.lines(terminalId)
  }

  output(terminalId: string): string {
    return this.text.get(terminalId) ?? ''
  }

  /** A `run` session's stderr. */
  errorOutput(terminalId: string): string {
    return this.errorText.get(terminalId) ?? ''
  }

  clearOutput(terminalId: string): void {
    this.text.set(terminalId, '')
  }

  /** Acknowledges up to `max` bytes of what arrived (a slow consumer). */
  ackPending(terminalId: string, max = Infinity, parseMs?: number): number {
    const owed = this.unacked.get(terminalId) ?? 0
    const bytes = Math.min(owed, max)
    if (bytes > 0) {
      this.unacked.set(terminalId, owed - bytes)
      this.terminals.ack(terminalId, bytes, this.clientId, parseMs)
    }
    return bytes
  }

  lastStatus(terminalId: string): TerminalStatus | undefined {
    return this.statuses.filter((status) => status.terminalId === terminalId).at(-1)
  }

  /** Resolves when `check` holds after some event; rejects after `timeoutMs` with what was seen. */
  waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    return this.waiters.waitFor(check, what, timeoutMs, () => {
      const last = this.statuses.at(-1)
      return `last status: ${last ? `${last.state}: ${last.message}` : 'none'}`
    })
  }

  waitForOutput(terminalId: string, needle: string | RegExp, timeoutMs?: number): Promise<void> {
    const test = (): boolean =>
      typeof needle === 'string' ? this.output(terminalId).includes(needle) : needle.test(this.output(terminalId))
    return this.waitFor(test, `output ${String(needle)}`, timeoutMs)
  }

  waitForState(terminalId: string, state: TerminalStatus['state'], timeoutMs?: number): Promise<void> {
    return this.waitFor(() => this.lastStatus(terminalId)?.state === state, `state ${state}`, timeoutMs)
  }
}

function ignoreClosed(action: () => void): void {
  try {
    action()
  } catch {
    // That terminal is closed.
  }
}
