/**
 * The round trip to an SSH server, for sizing shells' receive windows (receive-window.ts).
 *
 * The TCP connect time is the first estimate, but it is taken in the event loop: a busy main
 * process stretches it (13 ms on loopback was seen while a page loaded), and an estimate too
 * long only means a window too large, i.e. a slower Ctrl-C. So once the connection is up, a few
 * requests that the server answers at once refine it, and the quickest answer wins.
 *
 * The probe is ssh2's public `unforwardIn` for a forward that never existed (127.0.0.1:0): one
 * "cancel-tcpip-forward" global request, which OpenSSH and ssh2 servers refuse straight away
 * without doing anything. Its failure is the expected answer.
 */

/** What the probe needs of ssh2's Client. */
export interface ForwardCanceller {
  unforwardIn(bindAddr: string, bindPort: number, callback: (error?: Error | null) => void): unknown
}

export const ROUND_TRIP_PROBES = 3

/**
 * Sends `count` probes one after another and reports each answered round trip (ms) to `sample`.
 * Resolves with the round trips measured; a client that is gone just ends the probing.
 */
export async function probeRoundTrips(
  client: ForwardCanceller,
  sample: (ms: number) => void,
  count = ROUND_TRIP_PROBES,
  now: () => number = () => performance.now()
): Promise<number[]> {
  const measured: number[] = []
  for (let i = 0; i < count; i++) {
    const startedAt = now()
    const answered = await new Promise<boolean>((resolve) => {
      try {
        client.unforwardIn('127.0.0.1', 0, () => resolve(true))
      } catch {
        // "Not connected": the connection closed meanwhile.
        resolve(false)
      }
    })
    if (!answered) break
    const ms = now() - startedAt
    measured.push(ms)
    sample(ms)
  }
  return measured
}
