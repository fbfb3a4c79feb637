/**
 * The services the ssh command group needs, faked: a fixed list of instances (mutable, like a
 * newer poll), the Sandbox profile, settings with no key, and every emitted event recorded.
 */
import { systemClock } from '../../../shared/clock'
import type { Events, EventName, Profile, Settings } from '../../../shared/contract'
import type { Instance } from '../../../shared/api'
import type { ClientId } from '../../core-types'
import type { AnyCommandGroup } from '../../commands/dispatcher'
import type { createSshCommands, SshServices } from '../../commands/ssh'

export interface Sent {
  event: EventName
  payload: unknown
  target: ClientId | undefined
}

export function fakeSshServices(dataDir: string, instances: Instance[], sandboxKey?: string): { services: SshServices; sent: Sent[] } {
  const sent: Sent[] = []
  const settings = { sshKeyFile: null } as unknown as Settings
  const services: SshServices = {
    dataDir,
    clock: systemClock(),
    emit: <E extends EventName>(event: E, payload: Events[E], target?: ClientId) => void sent.push({ event, payload, target }),
    findInstance: (id) => instances.find((instance) => instance.instanceMetadata.instanceId === id),
    currentProfile: (): Profile => ({ id: 'sandbox', name: 'Sandbox', baseUrl: 'http://127.0.0.1:1', builtIn: 'sandbox' }),
    settings: () => settings,
    sandbox: () => (sandboxKey ? { notebookCertSha256: 'ab', sshPrivateKeyPath: sandboxKey } : undefined),
    platform: {
      openExternal: async () => {},
      openEditor: async () => {}
    },
    sessionState: () => ({ status: 'signed-in', profileId: 'sandbox', remembered: false, keychain: 'available' }),
    tunnelsChanged: () => {}
  }
  return { services, sent }
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
export function typeInto(group: ReturnType<typeof createSshCommands>, terminalId: string, data: string, clientId: string): void {
  void group.notices['ssh.input']({ terminalId, data }, { clientId })
}
