/**
 * The updater's rules with a scripted engine and the manual clock: when the feed is asked, what
 * the window is told, and that a restart never cuts off an open terminal, tunnel or transfer
 * unless the user says so.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import type { Settings } from '../../shared/contract'
import type { UpdateBlockers, UpdateChannel, UpdateState } from '../../shared/contract-update'
import { EventHub } from '../event-hub'
import { CHECK_EVERY_MS, UpdateService, updateFailure, WAIT_POLL_MS, type EngineEvent, type UpdateEngine } from './update-service'

function rig(script: (channel: UpdateChannel) => EngineEvent[] = () => [{ type: 'not-available' }]) {
  const clock = new ManualClock()
  const checks: UpdateChannel[] = []
  let installs = 0
  let listener: (event: EngineEvent) => void = () => {}
  const engine: UpdateEngine = {
    async check(channel) {
      checks.push(channel)
      listener({ type: 'checking' })
      for (const event of script(channel)) listener(event)
    },
    installAndRestart: () => void installs++,
    listen: (l) => void (listener = l)
  }
  const told: UpdateState[] = []
  let blockers: UpdateBlockers = { terminals: 0, tunnels: 0, transfers: 0 }
  let channel: UpdateChannel = 'stable'
  const hub = new EventHub()
  hub.subscribe((event, payload) => {
    if (event === 'update') told.push(payload as UpdateState)
  })
  const service = new UpdateService({
    engine,
    current: '0.1.0',
    clock,
    emit: hub.emit,
    events: hub,
    settings: { get: () => ({ updateChannel: channel }) },
    activity: { activity: () => blockers }
  })
  return {
    service,
    clock,
    checks,
    told,
    installs: () => installs,
    emit: (event: EngineEvent) => listener(event),
    setBlockers: (next: UpdateBlockers) => (blockers = next),
    /** The settings group's announcement of a changed setting, as the hub carries it. */
    announceChannel: (next: UpdateChannel) => {
      channel = next
      hub.emit('settings', { updateChannel: next } as Settings)
    }
  }
}

const found: EngineEvent[] = [
  { type: 'available', version: '0.2.0' },
  { type: 'progress', percent: 42.4 },
  { type: 'downloaded', version: '0.2.0' }
]

describe('the updater', () => {
  it('asks the feed at start and every 6 hours after, never more often', async () => {
    const r = rig()
    r.service.start()
    await Promise.resolve()
    expect(r.checks).toEqual(['stable'])
    expect(r.service.snapshot()).toMatchObject({ status: 'up-to-date', current: '0.1.0' })
    await r.clock.advanceAsync(CHECK_EVERY_MS - 1)
    expect(r.checks).toHaveLength(1)
    await r.clock.advanceAsync(1)
    expect(r.checks).toHaveLength(2)
    // Asked by hand: the 6 hours start over.
    await r.service.check()
    await r.clock.advanceAsync(CHECK_EVERY_MS - 1)
    expect(r.checks).toHaveLength(3)
    r.service.stop()
    await r.clock.advanceAsync(CHECK_EVERY_MS * 3)
    expect(r.checks).toHaveLength(3)
  })

  it('a newer version downloads in the background and is ready; the window hears each step', async () => {
    const r = rig(() => found)
    await r.service.check()
    expect(r.told.map((s) => s.status)).toEqual(['checking', 'checking', 'downloading', 'downloading', 'ready'])
    expect(r.told.find((s) => s.percent === 42)).toBeDefined()
    expect(r.service.snapshot()).toMatchObject({ status: 'ready', version: '0.2.0' })
    // Asking again does not start the download over.
    await r.service.check()
    expect(r.checks).toHaveLength(1)
  })

  it('restarts at once when nothing is open', async () => {
    const r = rig(() => found)
    await r.service.check()
    r.service.restart(false)
    expect(r.installs()).toBe(1)
  })

  it('waits while a terminal is open, says what for, goes ahead when it closes; "anyway" goes at once', async () => {
    const r = rig(() => found)
    await r.service.check()
    r.setBlockers({ terminals: 1, tunnels: 2, transfers: 0 })
    expect(r.service.restart(false)).toMatchObject({ status: 'ready', waitingFor: { terminals: 1, tunnels: 2, transfers: 0 } })
    await r.clock.advanceAsync(WAIT_POLL_MS * 5)
    expect(r.installs()).toBe(0)
    r.setBlockers({ terminals: 0, tunnels: 0, transfers: 0 })
    await r.clock.advanceAsync(WAIT_POLL_MS)
    expect(r.installs()).toBe(1)

    const anyway = rig(() => found)
    await anyway.service.check()
    anyway.setBlockers({ terminals: 0, tunnels: 0, transfers: 3 })
    anyway.service.restart(false)
    anyway.service.restart(true)
    expect(anyway.installs()).toBe(1)
  })

  it('never restarts by itself: a downloaded update waits for the user', async () => {
    const r = rig(() => found)
    r.service.start()
    await r.clock.advanceAsync(CHECK_EVERY_MS * 4)
    expect(r.installs()).toBe(0)
  })

  it('a failure is a quiet line (status failed, error), and a staged update survives a later failed check', async () => {
    const r = rig(() => [{ type: 'error', message: 'sha512 checksum mismatch, expected abc, got def' }])
    await r.service.check()
    expect(r.service.snapshot()).toMatchObject({ status: 'failed', error: expect.stringMatching(/did not match its published checksum/) })
    r.emit({ type: 'downloaded', version: '0.3.0' })
    r.emit({ type: 'error', message: 'net::ERR_INTERNET_DISCONNECTED' })
    expect(r.service.snapshot()).toMatchObject({ status: 'ready', version: '0.3.0' })
  })

  it('the channel setting is what the feed is asked with', async () => {
    const r = rig()
    r.announceChannel('beta')
    await Promise.resolve()
    expect(r.checks).toEqual(['beta'])
    r.announceChannel('beta')
    await Promise.resolve()
    expect(r.checks).toEqual(['beta'])
    expect(r.service.snapshot().channel).toBe('beta')
  })

  it('without an engine (the web shell, a development run) it says so and never asks', async () => {
    const clock = new ManualClock()
    const service = new UpdateService({
      engine: undefined,
      current: '0.1.0',
      clock,
      emit: () => {},
      settings: { get: () => ({ updateChannel: 'stable' }) },
      activity: { activity: () => ({ terminals: 0, tunnels: 0, transfers: 0 }) }
    })
    service.start()
    expect((await service.check()).status).toBe('unsupported')
  })

  it.each([
    ['sha512 checksum mismatch, expected x, got y', /checksum/],
    ['New version 0.2.0 is not signed by the application owner: publisherName: Cloud Tray', /not signed/],
    ['net::ERR_NAME_NOT_RESOLVED', /Could not reach the update server/],
    ['Cannot parse update info', /Could not check for updates/]
  ])('says %s in the user’s words', (message, expected) => {
    expect(updateFailure(message)).toMatch(expected)
  })
})
