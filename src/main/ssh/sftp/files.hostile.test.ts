/**
 * The files panel against a hostile instance (#21), through the whole core: the Sandbox's
 * instance SSH port leads to an SFTP server that lies (testing/hostile-sftp-server.ts). The
 * window here is the files harness, which writes every item where its path says, with no
 * browser's name checks in between: whatever keeps the user's disk safe must be main's.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../../shared/clock'
import type { SshPrompt } from '../../../shared/contract-ssh'
import { startSandboxCore, type SandboxCore } from '../../testing/sandbox-core'
import { FilesHarness } from '../testing/files-harness'
import { startHostileSftpServer, type HostileNode, type HostileSftpServer } from '../testing/hostile-sftp-server'
import { MAX_DOWNLOAD_ITEMS, WALK_TIMEOUT_MS } from './download'
import { LIST_TIMEOUT_MS, MAX_LIST_ENTRIES } from './listing'

const HOME = '/home/u'
const file = (content: string): HostileNode => ({ kind: 'file', content })
const LONG_NAME = 'x'.repeat(4096)

/** What the instance lists in /home/u/evil: the review's escapes and more. */
const EVIL: [string, HostileNode][] = [
  ['ok.txt', file('fine')],
  ['..', file('dotdot')],
  ['../../escape-dotdot.txt', file('escaped by dots')],
  ['/abs-escape.txt', file('escaped by a slash')],
  ['a/b', file('a slash')],
  ['a\\b', file('a backslash')],
  ['a_b', file('a real a_b')],
  ['\n', file('a newline')],
  [LONG_NAME, file('4 KiB of name')],
  ['bell\u0007.txt', file('bell')],
  ['esc\u001b[31m.txt', file('escape')],
  ['nul\u0000.txt', file('nul')],
  ['invoice\u202egpj.exe', file('rtl')],
  ['same.txt', file('first')],
  ['same.txt', file('second')],
  [
    'sub',
    {
      kind: 'folder',
      entries: [
        ['../../../escape-deep.txt', file('deep escape')],
        ['inner.txt', file('inner')]
      ]
    }
  ]
]

/** Resolves once `check` holds (real time: a socket's answer), or fails after 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !check(); await new Promise((resolve) => setTimeout(resolve, 10)))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
}

/** Every file under `root`, relative, with its content. */
function filesUnder(root: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name)
    const key = prefix ? `${prefix}/${entry.name}` : entry.name
    if (entry.isDirectory()) Object.assign(out, filesUnder(path, key))
    else out[key] = readFileSync(path, 'utf8')
  }
  return out
}

describe('files (SFTP) against a hostile instance, through the core', () => {
  let sandbox: SandboxCore
  let server: HostileSftpServer
  const clock = new ManualClock(Date.now())
  const harness = new FilesHarness()

  beforeAll(async () => {
    server = await startHostileSftpServer({
      home: HOME,
      tree: {
        [`${HOME}/evil`]: { kind: 'folder', entries: EVIL },
        // Their listings are what is hostile: one never ends, the other never answers.
        [`${HOME}/endless`]: { kind: 'folder', entries: [] },
        [`${HOME}/silent`]: { kind: 'folder', entries: [] }
      },
      endless: [`${HOME}/endless`],
      silent: [`${HOME}/silent`],
      // Folders all the way down, each listed just inside its own 30 s of the app's clock.
      deep: [`${HOME}/deep`],
      wide: { folders: [`${HOME}/wide`], fanout: 60_000 },
      beforeListing: (path) => (path.startsWith(`${HOME}/deep`) ? clock.advanceAsync(LIST_TIMEOUT_MS - 1) : undefined)
    })
    sandbox = await startSandboxCore({
      instanceName: 'hostile-box',
      reach: { sshBackend: { host: '127.0.0.1', port: server.port } },
      clock,
      onEvent: (event, payload, target) => {
        harness.emit(event, payload as never, target)
        if (event === 'ssh.prompt' && (payload as SshPrompt).kind === 'host-key') {
          const answer = { kind: 'host-key', decision: 'accept-and-remember' }
          void sandbox.core.handle('ssh.answer', { promptId: (payload as SshPrompt).promptId, answer }, { clientId: target ?? '' })
        }
      }
    })
    harness.invoke = (command, input) => sandbox.call(command as never, input, harness.clientId)
    harness.send = (notice, input) => sandbox.core.notice(notice as never, input, { clientId: harness.clientId })
  })

  afterAll(async () => {
    await sandbox?.close()
    await server?.close()
  })

  it('downloads a tree of hostile names: each left out or renamed with a message, nothing written outside the chosen folder', async () => {
    const { sessionId } = await harness.open(sandbox.instanceId)
    const scratch = join(sandbox.dataDir, 'download-scratch')
    const chosen = join(scratch, 'chosen')
    mkdirSync(chosen, { recursive: true })

    const outcome = await harness.download(sessionId, [`${HOME}/evil`], chosen)
    expect(outcome.state).toBe('done')

    // Nothing beside the chosen folder, and inside it only safe names.
    expect(readdirSync(scratch)).toEqual(['chosen'])
    expect(existsSync(join(sandbox.dataDir, 'escape-dotdot.txt'))).toBe(false)
    expect(filesUnder(chosen)).toEqual({
      'evil/ok.txt': 'fine',
      'evil/a_b': 'a real a_b',
      'evil/a_b (2)': 'a backslash',
      'evil/_': 'a newline',
      'evil/bell_.txt': 'bell',
      'evil/esc_[31m.txt': 'escape',
      'evil/invoice_gpj.exe': 'rtl',
      'evil/same.txt': 'first',
      'evil/sub/inner.txt': 'inner'
    })

    // The summary says what was left out and what was renamed, by name (ssh2 itself drops `..`).
    expect(outcome.message).toMatch(/^11 items, /)
    expect(outcome.message).toContain(
      '7 items were left out because the instance gave them names no file can have (“../../escape-dotdot.txt” holds a character no file name may; “/abs-escape.txt” holds a character no file name may; “a/b” holds a character no file name may, and 4 more).'
    )
    expect(outcome.message).toContain(
      '5 names were changed to be safe on your computer (“a\\b” → “a_b (2)”, “\\n” → “_”, “bell\\u{7}.txt” → “bell_.txt”, and 2 more).'
    )
  })

  it('a listing that never ends stops at the bound with a message, and main stops asking', async () => {
    const { sessionId } = await harness.open(sandbox.instanceId)
    const before = server.requests['READDIR'] ?? 0
    const listed = await sandbox.core.handle('files.list', { sessionId, path: `${HOME}/endless` }, { clientId: harness.clientId })
    expect(listed).toMatchObject({
      ok: false,
      error: {
        message: `“${HOME}/endless” lists more than 100,000 entries, so Cloud Tray stopped reading it. Open a sub-folder, or look inside from the terminal (ls | head).`
      }
    })
    // 1,000 names a page: main asked for a page past the bound and no more, and closed the folder.
    expect((server.requests['READDIR'] ?? 0) - before).toBe(MAX_LIST_ENTRIES / 1_000 + 1)
    await until(() => server.openFolders() === 0, 'the folder handle closed')
  })

  it('a listing that never answers ends with a message once its time is up (the app’s clock)', async () => {
    const { sessionId } = await harness.open(sandbox.instanceId)
    const listing = sandbox.core.handle('files.list', { sessionId, path: `${HOME}/silent` }, { clientId: harness.clientId })
    // Once the server holds the READDIR it will never answer, the app's time passes.
    const asked = server.requests['READDIR'] ?? 0
    await until(() => (server.requests['READDIR'] ?? 0) > asked, 'the READDIR')
    await clock.advanceAsync(LIST_TIMEOUT_MS - 1)
    expect(await Promise.race([listing.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 50))])).toBe(
      'waiting'
    )
    await clock.advanceAsync(1)
    expect(await listing).toMatchObject({
      ok: false,
      error: {
        message: `The instance did not finish listing “${HOME}/silent” within 30 s, so Cloud Tray stopped waiting. Try again; if it keeps happening, look inside from the terminal (ls).`
      }
    })
  })

  it('a download of folders without end, each listed just inside its bounds, stops at the walk’s time limit with a message', async () => {
    const { sessionId } = await harness.open(sandbox.instanceId)
    const opened = server.requests['OPENDIR'] ?? 0
    const listedInTime = Math.floor(WALK_TIMEOUT_MS / (LIST_TIMEOUT_MS - 1))
    const asked = sandbox.core.handle('files.download', { sessionId, paths: [`${HOME}/deep`] }, { clientId: harness.clientId })
    // A walk that does not stop at its limit goes on opening folders (the old code: until 100,000 items).
    const walking = until(() => (server.requests['OPENDIR'] ?? 0) - opened > 2 * listedInTime, 'the walk to go on past its limit').then(
      () => 'still walking'
    )
    expect(await Promise.race([asked, walking])).toMatchObject({
      ok: false,
      error: {
        message: `The instance took more than 5 minutes to list the folders to download (${listedInTime} folders so far). Nothing was downloaded. Try a smaller folder, or check the instance.`
      }
    })
    // The folder being listed then was closed, and no more were opened.
    await until(() => server.openFolders() === 0, 'the folder handle closed')
    expect((server.requests['OPENDIR'] ?? 0) - opened).toBe(listedInTime + 1)
    // Nothing half-started: no transfer was made, so the window heard of none.
    expect([...harness.progress.values()].flat().filter((progress) => progress.sessionId === sessionId)).toEqual([])
  })

  it('a download of folders each listing 60,000 more is refused at the second, before the walk holds more than a download may take', async () => {
    // Going deep first, the walk keeps each folder's listing on the way down: without a bound on
    // what waits, every level added 60,000 entries to main's memory.
    const { sessionId } = await harness.open(sandbox.instanceId)
    const opened = server.requests['OPENDIR'] ?? 0
    const asked = sandbox.core.handle('files.download', { sessionId, paths: [`${HOME}/wide`] }, { clientId: harness.clientId })
    const walking = until(() => (server.requests['OPENDIR'] ?? 0) - opened > 3, 'the walk to go a third level down').then(
      () => 'still walking'
    )
    expect(await Promise.race([asked, walking])).toMatchObject({
      ok: false,
      error: {
        message: `That is more than ${MAX_DOWNLOAD_ITEMS} files and folders. Download a smaller folder, or pack it first (e.g. tar) in the terminal.`
      }
    })
    expect((server.requests['OPENDIR'] ?? 0) - opened).toBe(2)
    await until(() => server.openFolders() === 0, 'the folder handles closed')
  })
})
