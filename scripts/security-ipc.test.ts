/**
 * Checklist item 17 (validate the sender of every IPC message), which Electronegativity cannot
 * see. C's table tests prove the rule (src/main/ipc-sender.test.ts); this proves its reach:
 *   - every contract command and notice, bound by bindIpc, refuses every kind of untrusted
 *     sender without reaching the core (property-based over senders and commands or notices);
 *   - nothing in the main process listens to IPC except through bindIpc (a source scan), so no
 *     channel can skip the check.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { COMMAND_NAMES, NOTICE_NAMES, commandChannel, noticeChannel } from '../src/shared/contract'
import type { AppCore } from '../src/main/core-types'
import { bindIpc, type WebContentsLike } from '../src/main/ipc'
import { fakeIpcMain } from '../src/main/testing/ipc-main'

const PAGE = 'app://cloud-tray/index.html'
const MAIN_WINDOW_ID = 1

function rig() {
  const { ipcMain, handlers, listeners } = fakeIpcMain()
  const reached: string[] = []
  const core = {
    handle: async (command: string) => {
      reached.push(command)
      return { ok: true, value: null }
    },
    notice: (notice: string) => void reached.push(notice),
    subscribe: () => () => undefined
  } as unknown as AppCore
  bindIpc(
    core,
    ipcMain,
    () => [],
    () => ({ webContentsIds: new Set([MAIN_WINDOW_ID]), pageUrl: PAGE })
  )
  return { handlers, listeners, reached }
}

/** A webContents as Electron has it: its id and its top-level frame. */
const contents = (id: number, mainFrame: unknown): WebContentsLike & { mainFrame: unknown } => ({
  id,
  mainFrame,
  isDestroyed: () => false,
  send: () => undefined
})

/** Every way a message can come from somewhere other than our page's main frame. */
const untrustedSender = fc.oneof(
  // another webContents (a notebook window, a devtools page) showing even our own page
  fc.integer({ min: 2, max: 1000 }).map((id) => {
    const frame = { url: PAGE, parent: null }
    return { sender: contents(id, frame), senderFrame: frame }
  }),
  // an iframe inside our window
  fc.constant(null).map(() => {
    const top = { url: PAGE, parent: null }
    const frame = { url: PAGE, parent: top }
    return { sender: contents(MAIN_WINDOW_ID, top), senderFrame: frame }
  }),
  // our window's main frame after it was navigated somewhere else
  fc
    .oneof(
      fc.tuple(fc.constantFrom('http', 'https'), fc.stringMatching(/^[a-z0-9.-]{1,24}$/)).map(([scheme, host]) => `${scheme}://${host}/`),
      fc.constantFrom(
        'file:///etc/passwd',
        'file:///opt/Cloud%20Tray/resources/app.asar/out/renderer/index.html',
        'app://cloud-tray/evil.html',
        'app://cloud-tray.evil/index.html',
        'data:text/html,x',
        'about:blank',
        'devtools://devtools/bundled/inspector.html'
      ),
      fc.string()
    )
    .map((url) => {
      const frame = { url, parent: null }
      return { sender: contents(MAIN_WINDOW_ID, frame), senderFrame: frame }
    }),
  // a frame that went away before the message was handled
  fc.constant(null).map(() => ({ sender: contents(MAIN_WINDOW_ID, { url: PAGE, parent: null }), senderFrame: null }))
)

describe('IPC sender validation', () => {
  it('binds exactly the contract’s commands and notices', () => {
    const { handlers, listeners } = rig()
    expect([...handlers.keys()].sort()).toEqual(COMMAND_NAMES.map((name) => commandChannel(name)).sort())
    expect([...listeners.keys()].sort()).toEqual(NOTICE_NAMES.map((name) => noticeChannel(name)).sort())
  })

  it('refuses every untrusted sender on every command, before the core', async () => {
    const { handlers, reached } = rig()
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...COMMAND_NAMES), untrustedSender, async (command, event) => {
        const answer = (await handlers.get(commandChannel(command))!(event, {})) as { ok: boolean; error?: { message: string } }
        return answer.ok === false && /refused/.test(answer.error?.message ?? '') && reached.length === 0
      }),
      { numRuns: 400 }
    )
  })

  it('drops every notice from every untrusted sender, before the core', () => {
    const { listeners, reached } = rig()
    fc.assert(
      fc.property(fc.constantFrom(...NOTICE_NAMES), untrustedSender, (notice, event) => {
        listeners.get(noticeChannel(notice))!(event, { terminalId: 't', data: 'x', bytes: 1, cols: 80, rows: 24 })
        return reached.length === 0
      }),
      { numRuns: 400 }
    )
  })

  it('answers our page’s main frame, hash routes included', async () => {
    const { handlers, listeners, reached } = rig()
    const frame = { url: `${PAGE}#/instances`, parent: null }
    const answer = await handlers.get(commandChannel('session.get'))!(
      { sender: contents(MAIN_WINDOW_ID, frame), senderFrame: frame },
      undefined
    )
    expect(answer).toEqual({ ok: true, value: null })
    listeners.get(noticeChannel('ssh.ack'))!({ sender: contents(MAIN_WINDOW_ID, frame), senderFrame: frame }, { terminalId: 't', bytes: 1 })
    expect(reached).toEqual(['session.get', 'ssh.ack'])
  })

  it('has no IPC listener in the main process outside bindIpc', () => {
    const root = join(import.meta.dirname, '..', 'src', 'main')
    const offenders = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.ts$/.test(file) && !/\.test\.ts$/.test(file) && file !== 'ipc.ts')
      .filter((file) => /\bipcMain\s*\.\s*(on|once|handle|handleOnce|addListener)\s*\(/.test(readFileSync(join(root, file), 'utf8')))
    expect(offenders, 'all IPC must go through bindIpc (src/main/ipc.ts), which checks the sender').toEqual([])
  })
})
