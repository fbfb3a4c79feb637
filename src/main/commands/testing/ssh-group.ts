/**
 * The SSH wing over faked parts of the app, and its command group as the core serves it: a fixed
 * list of instances (mutable, like a newer poll), the Sandbox profile, settings with no key, and
 * every emitted event recorded.
 */
import { systemClock } from '../../../shared/clock'
import type { Events, EventName, Profile, Settings } from '../../../shared/contract'
import type { Instance } from '../../../shared/api'
import { sshCommands, type SshGroup } from '../ssh'
import type { AnyCommandGroup } from '../dispatcher'
import type { ClientId } from '../../core-types'
import { EventHub } from '../../event-hub'
import { SshWing, type SshEnvironment, type SshWingOptions } from '../../ssh/ssh-wing'
import { recordedProblems } from '../../testing/save-problems'

export interface Sent {
  event: EventName
  payload: unknown
  target: ClientId | undefined
}

/** What the wing needs of the app, faked; change `settings.get()`'s object or `platform` before building the wing. */
export function fakeWingOptions(dataDir: string, instances: Instance[], sandboxKey?: string): { options: SshWingOptions; sent: Sent[] } {
  const sent: Sent[] = []
  const settings = {
    sshKeyFile: null,
    terminals: { plainShellProfiles: ['sandbox'], hideNoTmuxNotice: false, onCloseTab: 'ask' }
  } as unknown as Settings
  const options: SshWingOptions = {
    dataDir,
    problems: recordedProblems().problems,
    clock: systemClock(),
    emit: <E extends EventName>(event: E, payload: Events[E], target?: ClientId) => void sent.push({ event, payload, target }),
    events: new EventHub(),
    watcher: { find: (id) => instances.find((instance) => instance.instanceMetadata.instanceId === id) },
    account: {
      currentProfile: (): Profile => ({ id: 'sandbox', name: 'Sandbox', baseUrl: 'http://127.0.0.1:1', builtIn: 'sandbox' }),
      sandbox: () => (sandboxKey ? { notebookCertSha256: 'ab', sshPrivateKeyPath: sandboxKey } : undefined),
      state: () => ({ status: 'signed-in', profileId: 'sandbox', remembered: false, keychain: 'available' }),
      accountKey: () => 'sandbox/demo'
    },
    settings: { get: () => settings },
    platform: {
      openExternal: async () => {},
      openEditor: async () => {}
    }
  }
  return { options, sent }
}

/** The wing in `environment` and the ssh command group over it. */
export function sshGroupOver(options: SshWingOptions, environment: SshEnvironment): { wing: SshWing; group: SshGroup } {
  const wing = new SshWing({ ...options, environment })
  return { wing, group: sshCommands(wing) }
}

export async function callHandler<T>(
  group: AnyCommandGroup,
  command: keyof AnyCommandGroup['handlers'],
  input: unknown,
  clientId = 'c1'
): Promise<T> {
  const handler = group.handlers[command] as (input: unknown, context: { clientId: string }) => Promise<T>
  return handler(input, { clientId })
}

/** The `ssh.input` notice, as the dispatcher hands it on (it logs what this throws). */
export function typeInto(group: SshGroup, terminalId: string, data: string, clientId: string): void {
  void group.notices['ssh.input']({ terminalId, data }, { clientId })
}
