/**
 * The services the ssh command group needs, faked: a fixed list of instances (mutable, like a
 * newer poll), the Sandbox profile, settings with no key, and every emitted event recorded.
 */
import { systemClock } from '../../shared/clock'
import type { Events, EventName, Profile, Settings } from '../../shared/contract'
import type { Instance } from '../../shared/api'
import type { ClientId, CommandGroup, CoreServices, Platform } from '../core-types'

export interface Sent {
  event: EventName
  payload: unknown
  target: ClientId | undefined
}

export function fakeSshServices(dataDir: string, instances: Instance[], sandboxKey?: string): { services: CoreServices; sent: Sent[] } {
  const sent: Sent[] = []
  const settings = { sshKeyFile: null } as unknown as Settings
  const services: CoreServices = {
    dataDir,
    clock: systemClock(),
    emit: <E extends EventName>(event: E, payload: Events[E], target?: ClientId) => void sent.push({ event, payload, target }),
    platform: { shell: 'web' } as Platform,
    findInstance: (id) => instances.find((instance) => instance.instanceMetadata.instanceId === id),
    currentProfile: (): Profile => ({ id: 'sandbox', name: 'Sandbox', baseUrl: 'http://127.0.0.1:1', builtIn: 'sandbox' }),
    accessToken: () => 'secret-token',
    settings: () => settings,
    sandbox: () => (sandboxKey ? { notebookCertSha256: 'ab', sshPrivateKeyPath: sandboxKey } : undefined),
    onSessionChange: () => () => {},
    onSnapshot: () => () => {},
    trayChanged: () => {},
    pollSoon: () => {},
    cloud: () => {
      throw new Error('the ssh commands never call the cloud')
    },
    sessionState: () => ({ status: 'signed-in', profileId: 'sandbox', remembered: false, keychain: 'available' }),
    warn: () => {}
  }
  return { services, sent }
}

export async function callHandler<T>(group: CommandGroup, command: keyof CommandGroup['handlers'], input: unknown, clientId = 'c1'): Promise<T> {
  const handler = group.handlers[command] as (input: unknown, context: { clientId: string }) => Promise<T>
  return handler(input, { clientId })
}
