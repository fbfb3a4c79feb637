/**
 * Cores on the Sandbox for suites whose terminals and jobs outlive a core (tmux sessions on the
 * instances, a data folder a second core starts on again): each core comes with a `TerminalView`
 * bound to it, and after the suite every core's sessions are ended, every core closed and every
 * data folder removed, whatever the tests left.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import type { Clock } from '../../shared/clock'
import { startSandboxCore, type SandboxCore } from './sandbox-core'
import { TerminalView } from './terminal-view'

export interface SandboxTerminals {
  /** An empty data folder, removed after the suite. */
  freshFolder(): Promise<string>
  /** A core on `dataDir` (one a core ran on before: a restart) with a view of its terminals. */
  start(dataDir: string, options?: { instanceName?: string; clock?: Clock }): Promise<{ sandbox: SandboxCore; view: TerminalView }>
  /** Stops a core as the app quits, its tmux sessions left running (for the next core on its folder). */
  quit(sandbox: SandboxCore): Promise<void>
}

/** Call in a describe block: it registers the suite's teardown. */
export function sandboxTerminals(folderPrefix: string): SandboxTerminals {
  const cores: SandboxCore[] = []
  const folders: string[] = []
  afterAll(async () => {
    for (const sandbox of cores.splice(0)) {
      await sandbox.emulator.control.endSessions().catch(() => undefined)
      await sandbox.close().catch(() => undefined)
    }
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true })
  })
  return {
    async freshFolder() {
      const folder = await mkdtemp(join(tmpdir(), folderPrefix))
      folders.push(folder)
      return folder
    },
    async start(dataDir, options = {}) {
      const view = new TerminalView()
      const sandbox = await startSandboxCore({ ...options, dataDir, onEvent: view.onEvent })
      view.bind(sandbox.core)
      cores.push(sandbox)
      return { sandbox, view }
    },
    async quit(sandbox) {
      const at = cores.indexOf(sandbox)
      if (at >= 0) cores.splice(at, 1)
      await sandbox.close()
    }
  }
}
