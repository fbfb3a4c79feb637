/**
 * The saved terminal tabs: written 0600 in a 0700 folder, read back tab by tab (a bad one dropped),
 * stamped with their account, another account's scrollback never handed out, a pane's scrollback
 * capped at its end, gone with its pane, and everything of an account gone at its sign-out.
 */
import { mkdtemp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_SAVED_SCROLLBACK, type SavedTab, type SavedTerminals } from '../../../shared/contract-terminals'
import { posixFileModesMissing, skipBecause } from '../../../shared/node/testing/platform-support'
import { recordedProblems } from '../../testing/save-problems'
import { SavedTabs, TABS_FOLDER } from './saved-tabs'

const folders: string[] = []
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true })
})

async function store(): Promise<{ tabs: SavedTabs; dir: string; failures: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'cloudtray-saved-tabs-'))
  folders.push(dir)
  const { problems, failures } = recordedProblems()
  return { tabs: new SavedTabs(dir, problems), dir, failures }
}

function tab(tabId: string, panes: string[], account?: string): SavedTab {
  const [first, second] = panes as [string, string | undefined]
  return {
    tabId,
    instanceId: 'i-1',
    title: tabId,
    titleByUser: false,
    layout: second
      ? { kind: 'split', direction: 'right', ratio: 0.5, first: { kind: 'pane', paneId: first }, second: { kind: 'pane', paneId: second } }
      : { kind: 'pane', paneId: first },
    panes: panes.map((paneId) => ({
      paneId,
      instanceId: 'i-1',
      session: { socket: 'ours', name: `cloudtray-${paneId.replace(/-/g, '')}0000` }
    })),
    activePaneId: first,
    ...(account ? { account } : {})
  }
}

describe('saved terminal tabs', () => {
  it('saves, stamps the account and restores, with this account’s scrollback only', async () => {
    const { tabs, dir } = await store()
    const saved: SavedTerminals = { tabs: [tab('t-1', ['p-1', 'p-2'])], activeTab: { 'i-1': 't-1' }, lastInstanceId: 'i-1' }
    await tabs.save(saved, 'sandbox/demo')
    await tabs.saveScrollback('p-1', 'left pane\r\n', 'sandbox/demo')
    await tabs.saveScrollback('p-2', 'someone else', 'hpc-ai/bob')
    const again = new SavedTabs(dir, recordedProblems().problems)
    await again.load()
    const restored = await again.restore('sandbox/demo')
    expect(restored).toEqual({
      ...saved,
      tabs: [{ ...saved.tabs[0], account: 'sandbox/demo' }],
      account: 'sandbox/demo',
      scrollback: { 'p-1': 'left pane\r\n' }
    })
    // Another account sees the tab (to say whose it is) but none of its scrollback.
    expect((await again.restore('hpc-ai/bob')).scrollback).toEqual({})
  })

  it.skipIf(skipBecause(posixFileModesMissing(), 'file modes of saved tabs'))('writes every file 0600 in a 0700 folder', async () => {
    const { tabs, dir } = await store()
    await tabs.save({ tabs: [tab('t-1', ['p-1'])], activeTab: {} }, 'sandbox/demo')
    await tabs.saveScrollback('p-1', 'x', 'sandbox/demo')
    expect((await stat(join(dir, TABS_FOLDER))).mode & 0o777).toBe(0o700)
    expect((await stat(join(dir, TABS_FOLDER, 'tabs.json'))).mode & 0o777).toBe(0o600)
    expect((await stat(join(dir, TABS_FOLDER, 'scrollback'))).mode & 0o777).toBe(0o700)
    expect((await stat(join(dir, TABS_FOLDER, 'scrollback', 'p-1.txt'))).mode & 0o777).toBe(0o600)
  })

  it('keeps the end of a long scrollback, and forgets a closed pane’s', async () => {
    const { tabs, dir } = await store()
    await tabs.save({ tabs: [tab('t-1', ['p-1', 'p-2'])], activeTab: {} }, 'a/b')
    await tabs.saveScrollback('p-1', `${'x'.repeat(MAX_SAVED_SCROLLBACK)}THE END`, 'a/b')
    await tabs.saveScrollback('p-2', 'second', 'a/b')
    const text = await readFile(join(dir, TABS_FOLDER, 'scrollback', 'p-1.txt'), 'utf8')
    expect(text).toHaveLength(MAX_SAVED_SCROLLBACK)
    expect(text.endsWith('THE END')).toBe(true)
    await tabs.save({ tabs: [tab('t-1', ['p-1'])], activeTab: {} }, 'a/b')
    expect(await readdir(join(dir, TABS_FOLDER, 'scrollback'))).toEqual(['p-1.txt'])
  })

  it('deletes an account’s tabs and scrollback at its sign-out, and keeps the others’', async () => {
    const { tabs, dir } = await store()
    await tabs.save({ tabs: [tab('t-1', ['p-1']), tab('t-2', ['p-2'], 'other/alice')], activeTab: {} }, 'sandbox/demo')
    await tabs.saveScrollback('p-1', 'secret output', 'sandbox/demo')
    await tabs.forgetAccount('sandbox/demo')
    expect(await readdir(join(dir, TABS_FOLDER, 'scrollback'))).toEqual([])
    expect((await tabs.restore(undefined)).tabs.map((each) => each.tabId)).toEqual(['t-2'])
    expect(await readFile(join(dir, TABS_FOLDER, 'tabs.json'), 'utf8')).not.toContain('p-1')
  })

  it('reads a damaged file tab by tab, and refuses a layout that does not name its panes', async () => {
    const { tabs, dir } = await store()
    await mkdir(join(dir, TABS_FOLDER), { recursive: true })
    const good = tab('t-ok', ['p-1'], 'a/b')
    await writeFile(
      join(dir, TABS_FOLDER, 'tabs.json'),
      JSON.stringify({ tabs: [{ tabId: '../etc' }, good, { ...tab('t-bad', ['p-2']), activePaneId: 'p-9' }], activeTab: { 'i-1': 't-ok' } })
    )
    await tabs.load()
    expect((await tabs.restore('a/b')).tabs).toEqual([good])
    await expect(
      tabs.save({ tabs: [{ ...tab('t-3', ['p-3']), layout: { kind: 'pane', paneId: 'p-4' } }], activeTab: {} }, 'a/b')
    ).rejects.toThrow(/could not be saved/)
  })

  it('a write the disk refuses keeps the tabs in memory and is told, naming the file', async () => {
    const { tabs, dir, failures } = await store()
    // A folder where tabs.json goes: the write fails even for root, as a full disk would.
    await mkdir(join(dir, TABS_FOLDER, 'tabs.json'), { recursive: true })
    const saved: SavedTerminals = { tabs: [tab('t-1', ['p-1'])], activeTab: {} }
    await tabs.save(saved, 'sandbox/demo')
    expect(failures).toEqual([`${join(dir, TABS_FOLDER, 'tabs.json')}: your open terminal tabs`])
    expect((await tabs.restore('sandbox/demo')).tabs.map((kept) => kept.tabId)).toEqual(['t-1'])
  })
})
