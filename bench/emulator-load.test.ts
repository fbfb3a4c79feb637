/**
 * A short, bounded version of bench/emulator-load.ts in the suite: the emulator under concurrent
 * load keeps answering every request correctly, and still lists everything afterwards.
 */
import { describe, expect, it } from 'vitest'
import { loadProblems, runEmulatorLoad } from './emulator-load'

describe('emulator under load', () => {
  it('answers every list request correctly under 4 connections for a second', async () => {
    const report = await runEmulatorLoad({ seconds: 1, connections: 4 })
    expect(report.emulator.requests).toBeGreaterThan(20)
    expect(loadProblems(report)).toEqual([])
  }, 30_000)
})
