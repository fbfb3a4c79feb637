/**
 * How much a shell's server may send before hearing back from us: the SSH receive window.
 *
 * Everything the server has sent but xterm has not parsed stands between a Ctrl-C and its echo
 * (the PTY drops what it still holds on SIGINT; what left it does not come back). ssh2 grants
 * every channel a fixed 2 MiB, sized for long links; on a short one that is ~2 MiB of `yes`
 * lines to parse before the prompt returns (0.2–0.5 s in the xterm benchmark). A window needs
 * only to cover the link's bandwidth-delay product at the rate a terminal can draw, so shells
 * get `round trip × TERMINAL_RATE`, never less than MIN_WINDOW and never more than ssh2's own.
 *
 * ssh2 takes no option for it. The window it grants is topped up in one place
 * (Channel.js `windowAdjust`: `incoming.window += amount`, then `channelWindowAdjust(id, amount)`),
 * so the connection's protocol object is wrapped once to grant a limited channel only up to its
 * limit, and only once half of it is used (as OpenSSH does), keeping ssh2's count equal to what
 * the server was told. The initial 2 MiB granted when the channel opened cannot be taken back:
 * the limit holds from when the server has used it down. If ssh2's internals ever differ, the
 * channel keeps ssh2's window (`limitReceiveWindow` answers false) and the OpenSSH flood test fails.
 *
 * The limit holds only once the channel's consumer has fallen behind (`enforceReceiveLimit`,
 * called by terminal-session.ts when flow control first pauses the channel). Until then nothing
 * queues here: what the window lets the server send is on the link, and a consumer that keeps up
 * takes it as it comes, so a small window would only slow the link. bench/ssh-throughput.ts
 * measured it: with the limit from the start the app's session moved 47 MB/s against OpenSSH's
 * 55 (0.86); with ssh2's window, 69 against 58. A terminal whose page cannot keep up (every flood
 * into xterm) pauses within its first window of output and is limited from then on, as before.
 *
 * The round trip says how much the link needs; xterm's parse speed says how much is worth
 * holding. Once flow control has measured it (`paceReceiveWindow`, after each ack), the window is
 * also no more than SSH_SIDE_BUDGET_MS of that speed, but never less than two round trips of it
 * (a far link must still carry what xterm parses) nor than MIN_PACED_WINDOW. Plain lines parse
 * fast enough that the round trip's window stands; `yes` gets 32 KiB on loopback, 750 kB instead
 * of ssh2's 2 MiB 150 ms away.
 */
import { SSH_SIDE_BUDGET_MS } from './flow-control'

/** ssh2's window per channel (lib/Channel.js MAX_WINDOW; not exported). */
export const SSH2_WINDOW = 2 * 1024 * 1024
/**
 * The smallest window: with ssh2's read-ahead (read-ahead.ts) it refills most of the renderer's
 * flow-control window (256 KiB to start) the moment that is acknowledged, the rest one round trip later.
 */
export const MIN_WINDOW = 128 * 1024
/**
 * About what xterm draws on a fast machine (the target is 20 MB/s; it parses ~40 MB/s of plain
 * text without drawing): a window sized for more would only queue output behind a Ctrl-C.
 */
export const TERMINAL_RATE = 24_000_000
/** The least window sized by parse speed: a packet in flight while another is parsed. */
export const MIN_PACED_WINDOW = 32 * 1024

/**
 * The window for output xterm parses at `parseSpeed` bytes per ms (unknown: the link's window)
 * over a link with this round trip: the round trip's window, or less where xterm is slower than
 * the link could carry.
 */
export function pacedReceiveWindowFor(roundTripMs: number | undefined, parseSpeed: number | undefined): number {
  const forLink = receiveWindowFor(roundTripMs)
  if (roundTripMs === undefined || !(roundTripMs >= 0) || parseSpeed === undefined || !(parseSpeed > 0)) return forLink
  // Two round trips on a far link: ssh2 grants more once half the window is used, so about ¾ of
  // it is in flight on average, and xterm must not wait for the link between refills.
  const worthHolding = Math.round(parseSpeed * Math.max(SSH_SIDE_BUDGET_MS, 2 * roundTripMs))
  return Math.min(forLink, Math.max(MIN_PACED_WINDOW, worthHolding))
}

/** The window for a link with this round trip (unknown: ssh2's). */
export function receiveWindowFor(roundTripMs: number | undefined): number {
  if (roundTripMs === undefined || !Number.isFinite(roundTripMs) || roundTripMs < 0) return SSH2_WINDOW
  const bandwidthDelay = Math.ceil((roundTripMs / 1000) * TERMINAL_RATE)
  return Math.min(SSH2_WINDOW, Math.max(MIN_WINDOW, bandwidthDelay))
}

/** The parts of ssh2's channel this relies on. */
interface Ssh2ChannelInternals {
  incoming?: { window?: unknown }
  outgoing?: { id?: unknown }
  _client?: { _protocol?: WindowAdjuster }
  once?: (event: 'close', listener: () => void) => unknown
}

interface WindowAdjuster {
  channelWindowAdjust: (recipient: number, amount: number) => void
}

interface Limited {
  channel: { incoming: { window: number } }
  roundTripMs: number
  /** xterm's parse speed in this flood, bytes per ms (flow-control.ts `speed`). */
  parseSpeed: number | undefined
  /** The consumer fell behind once: the limit holds (until then, ssh2's own grants). */
  enforced: boolean
}

const limitsByProtocol = new WeakMap<WindowAdjuster, Map<number, Limited>>()

/**
 * Keeps `channel`'s receive window to what a link with this round trip needs (and, once paced,
 * what xterm's speed is worth) once its first grant is used; called again: the new round trip.
 * Returns false, changing nothing, when the round trip is unknown or ssh2's internals are not as
 * expected.
 */
export function limitReceiveWindow(channel: unknown, roundTripMs: number | undefined): boolean {
  if (roundTripMs === undefined || !Number.isFinite(roundTripMs) || roundTripMs < 0) return false
  const found = limitedOf(channel)
  if (found) {
    // A better round-trip estimate arrived: the same channel, a new limit.
    found.roundTripMs = roundTripMs
    return true
  }
  const internals = channel as Ssh2ChannelInternals
  const incoming = internals.incoming
  const recipient = internals.outgoing?.id
  const protocol = internals._client?._protocol
  if (!incoming || typeof incoming.window !== 'number' || typeof recipient !== 'number') return false
  if (!protocol || typeof protocol.channelWindowAdjust !== 'function') return false
  const limits = limitsFor(protocol)
  limits.set(recipient, { channel: { incoming: incoming as { window: number } }, roundTripMs, parseSpeed: undefined, enforced: false })
  internals.once?.('close', () => {
    if (limits.get(recipient)?.channel.incoming === incoming) limits.delete(recipient)
  })
  return true
}

/**
 * `channel`'s consumer fell behind (flow control paused it): from now on its limit holds. Once
 * is enough; later calls, and channels without a limit, change nothing.
 */
export function enforceReceiveLimit(channel: unknown): void {
  const limited = limitedOf(channel)
  if (limited) limited.enforced = true
}

/** xterm parses this channel's output at `parseSpeed` bytes per ms now (unknown: the link's window alone). */
export function paceReceiveWindow(channel: unknown, parseSpeed: number | undefined): void {
  const limited = limitedOf(channel)
  if (limited) limited.parseSpeed = parseSpeed
}

function limitedOf(channel: unknown): Limited | undefined {
  const internals = channel as Ssh2ChannelInternals
  const protocol = internals._client?._protocol
  const recipient = internals.outgoing?.id
  if (!protocol || typeof recipient !== 'number') return undefined
  const limited = limitsByProtocol.get(protocol)?.get(recipient)
  return limited && limited.channel.incoming === internals.incoming ? limited : undefined
}

function limitsFor(protocol: WindowAdjuster): Map<number, Limited> {
  const existing = limitsByProtocol.get(protocol)
  if (existing) return existing
  const limits = new Map<number, Limited>()
  limitsByProtocol.set(protocol, limits)
  const adjust = protocol.channelWindowAdjust.bind(protocol)
  protocol.channelWindowAdjust = (recipient, amount) => {
    const limited = limits.get(recipient)
    const limit = limited?.enforced ? pacedReceiveWindowFor(limited.roundTripMs, limited.parseSpeed) : SSH2_WINDOW
    if (!limited || limit >= SSH2_WINDOW) return adjust(recipient, amount)
    // ssh2 has already counted `amount` as granted; grant what the limit allows instead.
    const incoming = limited.channel.incoming
    const before = incoming.window - amount
    const grant = before <= limit / 2 ? Math.max(0, limit - before) : 0
    incoming.window = before + grant
    if (grant > 0) adjust(recipient, grant)
  }
  return limits
}
