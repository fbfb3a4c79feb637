/**
 * An "installed app" for `cloud-tray --start` tests: what the packaged layout's binary runs
 * (see cli-security.test.ts). It serves the command line's socket at CLOUD_TRAY_RUNTIME_DIR with
 * a core that is signed out, and stays until it is killed.
 */
import { tmpdir } from 'node:os'
import { startCliSocket } from '../../main/cli-socket/cli-socket-server'
import { currentCliSocketPlace } from '../../shared/node/cli-socket/place'

const server = await startCliSocket({
  version: '0.0.0-fake',
  place: currentCliSocketPlace(tmpdir()),
  core: {
    async handle(command) {
      if (command === 'session.get')
        return { ok: true, value: { status: 'signed-out', profileId: 'sandbox', remembered: false, keychain: 'available' } } as never
      return { ok: false, error: { kind: 'no-session', message: 'Signed out.' } }
    },
    notice: () => undefined,
    subscribe: () => () => undefined,
    clientGone: () => undefined
  }
})
process.on('SIGTERM', () => void server?.close().then(() => process.exit(0)))
