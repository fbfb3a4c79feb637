/**
 * Terminals over a suite's Debian sshd (`useOpenSshServer`), as the OpenSSH suites open them:
 * each `setup` has a home of its own (its known_hosts files beside it), signs in with the
 * server's user key, runs on a split clock, and its user answers "Accept and remember" to any
 * host-key question. Every rig is disposed when the suite ends, before the server stops.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { PromptAnswer, SshPrompt } from '../../../shared/contract-ssh'
import { KnownHostsStore } from '../host-keys/known-hosts-store'
import type { SshLinksOptions } from '../links/links'
import { runningInstance } from './instance'
import { splitClock } from './split-clock'
import { TerminalHarness, type TerminalRig } from './terminal-harness'
import type { OpenSshSuite } from './use-openssh-server'

export const acceptHostKeys = (prompt: SshPrompt): PromptAnswer | undefined =>
  prompt.kind === 'host-key' ? { kind: 'host-key', decision: 'accept-and-remember' } : undefined

export interface OpenSshTerminalOptions {
  /** The home's folder name in the suite's scratch; default one of its own per setup. */
  home?: string
  /** The app's known_hosts (another setup's, to start where it left off); default in the home. */
  appKnownHosts?: string
  /** What differs from the defaults above (a key file, an agent, keepalive). */
  links?: Partial<SshLinksOptions>
}

/** Call in a describe block, after `useOpenSshServer`. `xterm`: the harness parses the output as the renderer does. */
export function opensshTerminals(sshd: OpenSshSuite, xterm?: { cols: number; rows: number }) {
  const rigs: TerminalRig[] = []
  sshd.onEnd(() => {
    for (const rig of rigs.splice(0)) rig.dispose()
  })
  let counter = 0
  return function setup(options: OpenSshTerminalOptions = {}) {
    const harness = new TerminalHarness()
    if (xterm) harness.useXterm = xterm
    harness.answerPrompt = acceptHostKeys
    const home = join(sshd.scratch, options.home ?? `home-${++counter}`)
    mkdirSync(home, { recursive: true })
    const appFile = options.appKnownHosts ?? join(home, 'app-known_hosts')
    const userFile = join(home, '.ssh', 'known_hosts')
    const { clock, manual } = splitClock()
    const rig = harness.connect({
      clock,
      findInstance: (instanceId) =>
        runningInstance({ instanceId, host: '127.0.0.1', port: sshd.server.port, username: sshd.server.username }),
      knownHosts: new KnownHostsStore(appFile, userFile),
      homeDir: home,
      settingsKeyFile: () => sshd.server.userKeyPath,
      sandboxKeyFile: () => undefined,
      agent: undefined,
      random: () => 0,
      ...options.links
    })
    rigs.push(rig)
    return { harness, terminals: rig.terminals, links: rig.links, manual, home, appFile, userFile }
  }
}
