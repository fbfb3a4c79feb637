/**
 * The terminals' retry policy with nothing listening (connections refused at once): backoff
 * 1, 2, 4 … 30 s on an injected clock, a limit after which the user decides, Reconnect that
 * starts over, and ownership of terminals per client.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import { MAX_RECONNECT_ATTEMPTS } from './links/backoff'
import { KnownHostsStore } from './host-keys/known-hosts-store'
import { runningInstance } from './testing/instance'
import { REFUSED_PORT } from '../../shared/node/testing/refused-port'
import { TerminalHarness } from './testing/terminal-harness'

describe('the terminals: retry policy', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'cloudtray-terminals-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  async function setup() {
    const port = REFUSED_PORT // nothing listens here: every attempt is refused
    const clock = new ManualClock()
    const harness = new TerminalHarness()
    const { terminals, links } = harness.connect({
      clock,
      findInstance: (instanceId) => runningInstance({ instanceId, host: '127.0.0.1', port, username: 'u' }),
      knownHosts: new KnownHostsStore(join(scratch, 'known_hosts'), undefined),
      homeDir: join(scratch, 'home'),
      settingsKeyFile: () => null,
      sandboxKeyFile: () => undefined,
      agent: undefined,
      random: () => 0
    })
    return { clock, harness, terminals, links }
  }

  it('backs off 1, 2, 4, 8, 16, 30 s, gives up after the limit, and Reconnect starts over', async () => {
    const { clock, harness, terminals } = await setup()
    const { terminalId } = terminals.open('i-1', 80, 24, harness.clientId)
    const delays: number[] = []
    for (let attempt = 1; attempt <= MAX_RECONNECT_ATTEMPTS; attempt++) {
      await harness.waitFor(() => harness.statuses.filter((s) => s.state === 'reconnecting').length === attempt, `attempt ${attempt}`)
      const status = harness.lastStatus(terminalId)!
      expect(status.message).toMatch(/^Could not reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\).*network is up\. Retrying in \d+ s\.$/)
      delays.push(status.retryAt! - clock.now())
      clock.advance(status.retryAt! - clock.now())
    }
    expect(delays.slice(0, 7)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000])
    await harness.waitForState(terminalId, 'failed')
    expect(harness.lastStatus(terminalId)).toMatchObject({
      needsUser: true,
      message: expect.stringMatching(/Gave up after 12 attempts — press Reconnect/)
    })
    expect(clock.pending).toBe(0)

    terminals.reconnect(terminalId, harness.clientId)
    await harness.waitFor(() => harness.lastStatus(terminalId)?.state === 'reconnecting', 'a fresh first retry')
    expect(harness.lastStatus(terminalId)!.retryAt! - clock.now()).toBe(1000)
    terminals.dispose()
  })

  it('tries at once when the system wakes or comes back online, instead of waiting out the backoff', async () => {
    const { clock, harness, terminals, links } = await setup()
    const { terminalId } = terminals.open('i-1', 80, 24, harness.clientId)
    const waits = () => harness.statuses.filter((s) => s.state === 'reconnecting').length
    for (let attempt = 1; attempt <= 4; attempt++) {
      await harness.waitFor(() => waits() === attempt, `attempt ${attempt}`)
      clock.advance(harness.lastStatus(terminalId)!.retryAt! - clock.now())
    }
    await harness.waitFor(() => waits() === 5, 'the 5th wait (16 s)')
    const waitingSince = clock.now()
    links.retryWaitingNow()
    // The next failure comes without the clock moving: the attempt ran at once.
    await harness.waitFor(() => waits() === 6, 'an attempt right after wake')
    expect(clock.now()).toBe(waitingSince)
    terminals.dispose()
  })

  it('keeps each terminal to the client that opened it, and releases it when that client goes', async () => {
    const { harness, terminals } = await setup()
    const { terminalId } = terminals.open('i-2', 80, 24, harness.clientId)
    expect(() => terminals.input(terminalId, 'x', 'someone-else')).toThrow(/terminal is closed/)
    expect(() => terminals.reconnect(terminalId, 'someone-else')).toThrow(/terminal is closed/)
    terminals.clientGone(harness.clientId)
    expect(() => terminals.input(terminalId, 'x', harness.clientId)).toThrow(/terminal is closed/)
    expect(terminals.stats(terminalId)).toBeUndefined()
  })
})
