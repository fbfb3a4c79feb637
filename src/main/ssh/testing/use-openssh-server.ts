/**
 * One Debian sshd per test suite, with a scratch folder beside it: started before the suite's
 * tests, and after them the suite's own endings run (links, tunnels, files sessions), then the
 * server stops and the folder goes. A separate file from openssh-server.ts so the benchmarks,
 * which use the server without vitest, do not load it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { OpenSshServer, type OpenSshServerOptions } from './openssh-server'

export interface OpenSshSuite {
  /** The running server (from the suite's first test on). */
  readonly server: OpenSshServer
  /** This suite's scratch folder (homes, known_hosts files, data folders). */
  readonly scratch: string
  /** Runs after the suite's tests, before the server stops. */
  onEnd(step: () => unknown): void
}

export function useOpenSshServer(prefix: string, options: OpenSshServerOptions = {}): OpenSshSuite {
  let server: OpenSshServer | undefined
  let scratch: string | undefined
  const endings: (() => unknown)[] = []
  beforeAll(async () => {
    server = new OpenSshServer(options)
    await server.start()
    scratch = mkdtempSync(join(tmpdir(), prefix))
  })
  afterAll(async () => {
    for (const step of endings.splice(0)) await step()
    await server?.dispose()
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })
  return {
    get server() {
      if (!server) throw new Error('The sshd starts before the suite’s first test.')
      return server
    },
    get scratch() {
      if (!scratch) throw new Error('The scratch folder is made before the suite’s first test.')
      return scratch
    },
    onEnd: (step) => void endings.push(step)
  }
}
