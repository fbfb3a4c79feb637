/**
 * The control surface over HTTP, under /__emulator/ on a port of its own, for the standalone
 * emulator (curl, Playwright, load tests in another process). Every request needs the run's
 * control secret (server.ts); never faulted or counted. The README's emulator section documents
 * each route.
 */
import { MAX_SEED, type EmulatorControl } from './control'
import { SFTP_FAULTS } from './reach/sftp-server'
import type { SftpFault } from './reach-types'
import { optional, requireBoolean, requireInteger, requireString, type Body } from './fields'
import type { SeedOverrides } from './instances'

export interface ControlAnswer {
  status: number
  body: unknown
  /** Runs after the answer is sent (taking the listener down must not cut its own answer). */
  after?: () => void
}

type Route = (body: Body, query: URLSearchParams) => Promise<ControlAnswer> | ControlAnswer

const done = (extra: Record<string, unknown> = {}): ControlAnswer => ({ status: 200, body: { ok: true, ...extra } })

/** A route that does what the body asks and answers { ok: true }. */
const acting =
  (act: (body: Body) => void): Route =>
  (body) => {
    act(body)
    return done()
  }

/** How many of the next requests a fault is for. */
const countOf = (body: Body): number => requireInteger(body, 'count', 'count', { min: 0, max: 1_000_000 })

const optionalString = (body: Body, key: string): string | undefined =>
  optional<string | undefined>(body, key, undefined, () => requireString(body, key))

export function createControlRoutes(control: EmulatorControl, log: (line: string) => void): Map<string, Route> {
  const routes = new Map<string, Route>([
    ['GET /catalog', () => ({ status: 200, body: control.catalog() })],
    ['GET /instances', (_body, query) => ({ status: 200, body: { instances: control.instances(query.get('username') ?? undefined) } })],
    ['GET /volumes', (_body, query) => ({ status: 200, body: { volumes: control.volumes(query.get('username') ?? undefined) } })],
    ['GET /now', () => ({ status: 200, body: { now: control.now() } })],
    ['GET /requests', (_body, query) => ({ status: 200, body: { count: control.requestCount(query.get('route') ?? undefined) } })],
    ['GET /ssh-stats', () => ({ status: 200, body: { instances: control.sshStats() } })],
    [
      'GET /tmux-clients',
      async (_body, query) => ({ status: 200, body: { clients: await control.tmuxClients(query.get('instanceId') ?? '') } })
    ],
    ['POST /requests/reset', acting(() => control.resetRequestCount())],
    [
      'POST /status',
      acting((body) => {
        control.setStatus(requireString(body, 'instanceId'), requireString(body, 'status', 'status', { nonEmpty: true }), {
          phase: optionalString(body, 'phase'),
          message: optionalString(body, 'message'),
          diagnosisReason: optionalString(body, 'diagnosisReason'),
          diagnosisMessage: optionalString(body, 'diagnosisMessage')
        })
      })
    ],
    ['POST /preempt', acting((body) => control.preempt(requireString(body, 'instanceId')))],
    [
      'POST /stock',
      acting((body) =>
        control.setStock(requireString(body, 'instanceTypeId'), requireString(body, 'region'), requireBoolean(body, 'inStock'))
      )
    ],
    [
      'POST /advance',
      (body) => {
        control.advance(requireInteger(body, 'ms', 'ms', { min: 0, max: 10 * 365 * 86_400_000 }))
        return done({ now: control.now() })
      }
    ],
    ['POST /faults/latency', acting((body) => control.faults.setLatency(requireInteger(body, 'ms', 'ms', { min: 0, max: 600_000 })))],
    [
      'POST /faults/fail-next',
      (body) => {
        const count = countOf(body)
        const status = optional(body, 'status', 503, () => requireInteger(body, 'status', 'status', { min: 500, max: 599 }))
        control.faults.failNext(count, status)
        return done()
      }
    ],
    ['POST /faults/drop-next', acting((body) => control.faults.dropNext(countOf(body)))],
    ['POST /faults/lose-next', acting((body) => control.faults.loseNextAnswers(countOf(body), optionalString(body, 'route')))],
    [
      'POST /faults/down',
      (body) => {
        const down = requireBoolean(body, 'down')
        const forMs = optional<number | undefined>(body, 'forMs', undefined, () =>
          requireInteger(body, 'forMs', 'forMs', { min: 1, max: 600_000 })
        )
        if (!down) return done()
        return {
          ...done(forMs ? { upAgainInMs: forMs } : {}),
          after: () => {
            void control.faults.setDown(true).then(() => {
              if (forMs)
                setTimeout(() => {
                  control.faults.setDown(false).catch((error: Error) => log(`could not listen again: ${error.message}`))
                }, forMs)
            })
          }
        }
      }
    ],
    [
      'POST /faults/sftp',
      (body) => {
        const fault = requireString(body, 'fault')
        if (!(SFTP_FAULTS as readonly string[]).includes(fault))
          throw new RangeError(`field "fault" must be one of ${SFTP_FAULTS.join(', ')}`)
        control.faults.sftp(requireString(body, 'instanceId'), fault as SftpFault)
        return done()
      }
    ],
    [
      'POST /faults/tmux',
      async (body) => {
        const tmux = requireString(body, 'tmux')
        if (tmux !== 'present' && tmux !== 'missing') throw new RangeError('field "tmux" must be one of present, missing')
        await control.faults.tmux(requireString(body, 'instanceId'), tmux)
        return done()
      }
    ],
    [
      'POST /faults/terminal-stall',
      async (body) => {
        await control.faults.stallTerminals(requireString(body, 'instanceId'), requireBoolean(body, 'stalled'))
        return done()
      }
    ],
    [
      'POST /faults/ssh-drop',
      (body) => {
        control.faults.dropSsh(requireString(body, 'instanceId'))
        return done()
      }
    ],
    [
      'POST /faults/reset',
      async () => {
        await control.faults.reset()
        return done()
      }
    ],
    ['POST /expire-tokens', acting((body) => control.expireTokens(optionalString(body, 'username')))],
    ['POST /unlock', acting((body) => control.unlock(requireString(body, 'username')))],
    [
      'POST /seed',
      async (body) => {
        const username = requireString(body, 'username')
        const count = requireInteger(body, 'count', 'count', { min: 0, max: MAX_SEED })
        const overrides: SeedOverrides = {
          status: optionalString(body, 'status'),
          name: optionalString(body, 'name'),
          regionId: optionalString(body, 'regionId'),
          instanceTypeId: optionalString(body, 'instanceTypeId'),
          imageId: optionalString(body, 'imageId'),
          isSpotInstance: optional<boolean | undefined>(body, 'isSpotInstance', undefined, () => requireBoolean(body, 'isSpotInstance'))
        }
        return done({ instanceIds: await control.seedInstances(username, count, overrides) })
      }
    ],
    [
      'POST /gpu',
      async (body) => {
        const { instanceId: _id, ...setting } = body
        await control.setGpu(requireString(body, 'instanceId'), setting as never)
        return done({ gpus: control.gpus(requireString(body, 'instanceId')) })
      }
    ],
    ['POST /api-keys', (body) => ({ status: 200, body: { key: control.createApiKey(requireString(body, 'username')) } })],
    ['POST /api-keys/revoke', (body) => done({ revoked: control.revokeApiKeys(optionalString(body, 'username')) })],
    ['GET /balance', (_body, query) => ({ status: 200, body: control.balance(query.get('username') ?? '') })],
    [
      'POST /balance',
      (body) => {
        const dollars = (key: string): number | undefined =>
          optional<number | undefined>(body, key, undefined, () => {
            const value = body[key]
            if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`field "${key}" must be a number of dollars`)
            return value
          })
        control.setBalance(requireString(body, 'username'), {
          balance: dollars('balance'),
          voucher: dollars('voucher'),
          credit: dollars('credit')
        })
        return done()
      }
    ],
    [
      'POST /faults/redirect-next',
      acting((body) => {
        control.faults.redirectNext(
          countOf(body),
          requireInteger(body, 'status', 'status', { min: 300, max: 399 }),
          requireString(body, 'location')
        )
      })
    ],
    ['POST /ssh-keys', acting((body) => control.registerSshKey(requireString(body, 'username'), requireString(body, 'publicKey')))]
  ])
  // The index: what a person poking at the emulator with curl can do here.
  routes.set('GET /', () => ({ status: 200, body: { routes: [...routes.keys()].map((key) => key.replace(' /', ' /__emulator/')) } }))
  return routes
}
