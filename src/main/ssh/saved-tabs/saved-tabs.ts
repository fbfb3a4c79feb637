/**
 * The open terminal tabs, kept in the data folder so a restart brings them back:
 * `<dataDir>/terminal-tabs/tabs.json` (the layout, rewritten atomically as it changes) and one
 * file per pane under `scrollback/` (its last scrollback, capped), every file 0600 in a 0700
 * folder. What the file holds is parsed tab by tab: a bad tab is dropped, the others stay.
 *
 * Tabs are stamped with their account. The scrollback of another account's tabs is never handed
 * out; a sign-out deletes that account's tabs and their scrollback.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import type { RestoredTerminals, SavedTab, SavedTerminals } from '../../../shared/contract-terminals'
import { MAX_PANES_PER_TAB, MAX_SAVED_SCROLLBACK, MAX_SAVED_TABS, SAVED_ID } from '../../../shared/contract-terminals'
import { writeFileAtomic } from '../../../shared/node/atomic-write'
import { AppError } from '../../app-error'
import { readJsonList } from '../../util/read-json-list'
import { sessionRefSchema } from '../sessions/session-names'
import type { SaveProblems } from '../../util/save-problems'

export const TABS_FOLDER = 'terminal-tabs'

const savedId = z.string().regex(SAVED_ID)
const instanceId = z.string().min(1).max(200)
const session = sessionRefSchema
type Layout = SavedTab['layout']
const layout: z.ZodType<Layout> = z.lazy(() =>
  z.union([
    z.object({ kind: z.literal('pane'), paneId: savedId }),
    z.object({
      kind: z.literal('split'),
      direction: z.enum(['right', 'down']),
      ratio: z.number().min(0.1).max(0.9),
      first: layout,
      second: layout
    })
  ])
)

export const SavedTabSchema = z
  .object({
    tabId: savedId,
    instanceId,
    title: z.string().max(200),
    titleByUser: z.boolean(),
    layout,
    panes: z
      .array(z.object({ paneId: savedId, instanceId, session: session.optional() }))
      .min(1)
      .max(MAX_PANES_PER_TAB),
    activePaneId: savedId,
    account: z.string().min(1).max(400).optional()
  })
  .refine(
    (tab) =>
      sameIds(
        paneIds(tab.layout),
        tab.panes.map((pane) => pane.paneId)
      ),
    'the layout names exactly its panes'
  )
  .refine((tab) => tab.panes.some((pane) => pane.paneId === tab.activePaneId), 'the active pane is one of its panes')

export const SavedTerminalsSchema = z.object({
  tabs: z.array(SavedTabSchema).max(MAX_SAVED_TABS),
  activeTab: z.record(instanceId, savedId),
  lastInstanceId: instanceId.optional()
})

export class SavedTabs {
  private saved: SavedTerminals = { tabs: [], activeTab: {} }
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly dataDir: string,
    /** A refused write keeps the tabs in memory and is told here (a warning naming the file). */
    private readonly problems: SaveProblems
  ) {}

  private get folder(): string {
    return join(this.dataDir, TABS_FOLDER)
  }

  private get scrollbackFolder(): string {
    return join(this.folder, 'scrollback')
  }

  /** Reads the saved tabs; a missing or unreadable file is no tabs. */
  async load(): Promise<void> {
    const file = await readJsonList(join(this.folder, 'tabs.json'), 'tabs', SavedTabSchema)
    if (!file) return
    const rest = SavedTerminalsSchema.omit({ tabs: true }).safeParse(file.object)
    this.saved = { tabs: (file.items as SavedTab[]).slice(0, MAX_SAVED_TABS), ...(rest.success ? rest.data : { activeTab: {} }) }
  }

  /** What a window shows after a start: every saved tab, and the scrollback of `account`'s panes. */
  async restore(account: string | undefined): Promise<RestoredTerminals> {
    const scrollback: Record<string, string> = {}
    for (const tab of this.saved.tabs) {
      if (tab.account === undefined || tab.account !== account) continue
      for (const pane of tab.panes) {
        const text = await readFile(this.scrollbackPath(pane.paneId), 'utf8').catch(() => undefined)
        if (text !== undefined) scrollback[pane.paneId] = text
      }
    }
    return { ...structuredClone(this.saved), account: account ?? null, scrollback }
  }

  /** The window's tabs now: new ones are stamped with `account`; panes no tab has lose their scrollback. */
  async save(next: SavedTerminals, account: string | undefined): Promise<void> {
    const parsed = SavedTerminalsSchema.safeParse(next)
    if (!parsed.success)
      throw new AppError('bad-input', `The terminal tabs could not be saved: ${parsed.error.issues[0]?.message ?? 'invalid'}.`)
    const tabs = (parsed.data.tabs as SavedTab[]).map((tab) => (tab.account !== undefined || !account ? tab : { ...tab, account }))
    this.saved = { ...(parsed.data as SavedTerminals), tabs }
    await this.write()
  }

  /** A pane's scrollback: only for a pane of a saved tab of `account`, and only its last MAX_SAVED_SCROLLBACK. */
  async saveScrollback(paneId: string, data: string, account: string | undefined): Promise<void> {
    const owner = this.saved.tabs.find((tab) => tab.panes.some((pane) => pane.paneId === paneId))
    if (!owner || owner.account === undefined || owner.account !== account) return
    const kept = data.length > MAX_SAVED_SCROLLBACK ? data.slice(data.length - MAX_SAVED_SCROLLBACK) : data
    const path = this.scrollbackPath(paneId)
    await this.queue(this.scrollbackFolder, "your terminals' scrollback", async () => {
      await mkdir(this.scrollbackFolder, { recursive: true, mode: 0o700 })
      await writeFileAtomic(path, kept, 0o600)
    })
  }

  /** Sign-out: the account's tabs and every byte of their scrollback go. */
  async forgetAccount(account: string): Promise<void> {
    this.saved = { ...this.saved, tabs: this.saved.tabs.filter((tab) => tab.account !== account) }
    await this.write()
  }

  /** Resolves once every save so far is on disk. */
  flushed(): Promise<void> {
    return this.writing
  }

  private scrollbackPath(paneId: string): string {
    if (!SAVED_ID.test(paneId)) throw new AppError('bad-input', 'Not a pane of Cloud Tray.')
    return join(this.scrollbackFolder, `${paneId}.txt`)
  }

  /** The layout, then the scrollback files of panes no saved tab has any more are deleted. */
  private write(): Promise<void> {
    const snapshot = structuredClone(this.saved)
    const path = join(this.folder, 'tabs.json')
    return this.queue(path, 'your open terminal tabs', async () => {
      await mkdir(this.folder, { recursive: true, mode: 0o700 })
      await writeFileAtomic(path, JSON.stringify(snapshot, null, 2) + '\n', 0o600)
      const live = new Set(snapshot.tabs.flatMap((tab) => tab.panes.map((pane) => `${pane.paneId}.txt`)))
      const files = await readdir(this.scrollbackFolder).catch(() => [] as string[])
      await Promise.all(files.filter((file) => !live.has(file)).map((file) => rm(join(this.scrollbackFolder, file), { force: true })))
    })
  }

  /** One write at a time; a refused one is told to `problems` (under `path`, as holding `what`), the rest kept in memory. */
  private queue(path: string, what: string, work: () => Promise<void>): Promise<void> {
    this.writing = this.writing.then(async () => {
      try {
        await work()
        this.problems.saved(path)
      } catch (error) {
        this.problems.failed(path, what, error)
      }
    })
    return this.writing
  }
}

function paneIds(layout: Layout): string[] {
  return layout.kind === 'pane' ? [layout.paneId] : [...paneIds(layout.first), ...paneIds(layout.second)]
}

function sameIds(a: string[], b: string[]): boolean {
  return a.length === b.length && new Set(a).size === a.length && a.every((id) => b.includes(id))
}
