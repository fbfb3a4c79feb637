import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NO_RULES } from '../../shared/guard-rules'
import { GUARD_FILE, GuardStore } from './guard-store'
import type { RuleState } from './rules'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'guard-store-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const state = (over: Partial<RuleState> = {}): RuleState => ({
  rules: { ...NO_RULES, idle: { belowPercent: 5, forMinutes: 30 } },
  stopAtFrom: 1,
  countdown: { rule: 'idle', reason: 'idle', startedAt: 10, endsAt: 20 },
  ...over
})

describe('GuardStore', () => {
  it('keeps each account apart and survives a new store on the same folder (a restart)', async () => {
    const store = new GuardStore(dir, () => 0)
    store.set('sandbox/demo', 'i-1', state())
    store.set('sandbox/demo', 'i-2', state({ countdown: undefined as never }))
    store.set('hpc-ai/ann', 'i-9', state({ nextReminderAt: 5 }))
    store.delete('sandbox/demo', 'i-2')
    await store.flushed()
    expect((await stat(join(dir, GUARD_FILE))).mode & 0o777).toBe(0o600)

    const again = new GuardStore(dir, () => 0)
    expect(await again.load()).toEqual({})
    expect(again.entries('sandbox/demo')).toEqual([['i-1', state()]])
    expect(again.get('hpc-ai/ann', 'i-9')).toMatchObject({ nextReminderAt: 5 })
    expect(again.entries('nobody')).toEqual([])
  })

  it('drops one unreadable entry and keeps the rest', async () => {
    const good = state()
    await writeFile(
      join(dir, GUARD_FILE),
      JSON.stringify({ version: 1, accounts: { a: { good, bad: { rules: { idle: 'always' } }, worse: null } } })
    )
    const store = new GuardStore(dir, () => 0)
    expect(await store.load()).toEqual({})
    expect(store.entries('a')).toEqual([['good', good]])
  })

  it('sets a file that is not JSON aside and says so', async () => {
    await writeFile(join(dir, GUARD_FILE), '{"version":1,"acc')
    const store = new GuardStore(dir, () => 42)
    const { warning } = await store.load()
    expect(warning).toMatch(/could not read its auto-stop rules.*cost-guard\.json\.bad-42/)
    expect(await readdir(dir)).toEqual([`${GUARD_FILE}.bad-42`])
  })

  it('writes the changes of one turn once, and the last word is on disk', async () => {
    const store = new GuardStore(dir, () => 0)
    for (let i = 0; i < 50; i++) store.set('a', 'i-1', state({ nextReminderAt: i }))
    await store.flushed()
    const saved = JSON.parse(await readFile(join(dir, GUARD_FILE), 'utf8')) as { accounts: Record<string, Record<string, RuleState>> }
    expect(saved.accounts['a']!['i-1']!.nextReminderAt).toBe(49)
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})
