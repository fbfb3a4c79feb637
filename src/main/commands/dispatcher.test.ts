import { describe, expect, it } from 'vitest'
import { COMMAND_NAMES, type CommandName } from '../../shared/contract'
import { AppError } from '../app-error'
import type { ClientContext } from '../core-types'
import {
  commandTable,
  createDispatcher,
  type AnyCommandGroup,
  type CommandGroup,
  type CommandHandlers,
  type DispatcherOptions
} from './dispatcher'

/** A group answering every command with its own name, the way a test needs them. */
function everything(): CommandGroup<CommandName> {
  const handlers = Object.fromEntries(COMMAND_NAMES.map((name) => [name, async () => name]))
  return { handlers: handlers as unknown as CommandGroup<CommandName>['handlers'] }
}

function withoutAppInfo(): CommandGroup<Exclude<CommandName, 'app.info'>> {
  const { 'app.info': _gone, ...handlers } = everything().handlers
  return { handlers }
}

const appInfo: CommandGroup<'app.info'> = {
  handlers: { 'app.info': async () => ({ version: '1', shell: 'electron', replaced: [] }) }
}

const passThrough: DispatcherOptions = { run: (_command, attempt) => attempt() }
const context: ClientContext = { clientId: 'c1' }

describe('the handler table', () => {
  it('is complete by type: a command without a handler does not compile', () => {
    // @ts-expect-error 'app.info' has no handler, so this is not a CommandHandlers table
    const incomplete: CommandHandlers = { ...withoutAppInfo().handlers }
    // @ts-expect-error the groups leave 'app.info' without a handler
    expect(() => commandTable([withoutAppInfo()])).not.toThrow()
    // @ts-expect-error the same for a dispatcher built from them
    createDispatcher([withoutAppInfo()], passThrough)
    expect(Object.keys(commandTable([withoutAppInfo(), appInfo])).sort()).toEqual([...COMMAND_NAMES].sort())
    expect(incomplete).toBeDefined()
  })

  it('refuses two groups answering the same command', () => {
    expect(() => commandTable([everything(), appInfo])).toThrow(/Two command groups handle app.info/)
  })
})

describe('the dispatcher', () => {
  it('checks the input by its schema before any handler runs', async () => {
    const calls: unknown[] = []
    const group: AnyCommandGroup = { handlers: { ...everything().handlers, 'instances.stop': async (input) => void calls.push(input) as never } }
    const dispatcher = createDispatcher([group as CommandGroup<CommandName>], passThrough)
    expect(await dispatcher.handle('instances.stop', { instanceId: 3 }, context)).toMatchObject({ ok: false, error: { kind: 'bad-input', field: 'instanceId' } })
    expect(await dispatcher.handle('instances.stop', { instanceId: 'i-1' }, context)).toEqual({ ok: true, value: undefined })
    expect(calls).toEqual([{ instanceId: 'i-1' }])
  })

  it.each(['nope', '__proto__', 'constructor', 'hasOwnProperty'])('answers an unknown command %j with bad-input, never a rejection', async (name) => {
    const dispatcher = createDispatcher([everything()], passThrough)
    expect(await dispatcher.handle(name as CommandName, undefined, context)).toMatchObject({ ok: false, error: { kind: 'bad-input' } })
  })

  it('runs each command through the gate it is given, and turns throws into error results', async () => {
    const ran: string[] = []
    const errors: string[] = []
    const failing: AnyCommandGroup = {
      handlers: {
        ...everything().handlers,
        'session.get': async () => {
          throw new AppError('not-allowed', 'No.')
        },
        'app.info': async () => {
          throw new TypeError('boom')
        }
      }
    }
    const dispatcher = createDispatcher([failing as CommandGroup<CommandName>], {
      run: (command, attempt) => {
        ran.push(command)
        return attempt()
      },
      log: { info: () => {}, warn: () => {}, error: (message) => void errors.push(message), secrets: { add: () => {}, delete: () => {} } }
    })
    expect(await dispatcher.handle('session.get', undefined, context)).toEqual({ ok: false, error: { kind: 'not-allowed', message: 'No.' } })
    expect(await dispatcher.handle('app.info', undefined, context)).toMatchObject({ ok: false, error: { kind: 'internal', message: expect.stringContaining('boom') } })
    expect(ran).toEqual(['session.get', 'app.info'])
    // Only the unexpected failure is logged as an error; a refusal is the user's answer.
    expect(errors).toEqual(['app.info failed'])
  })

  it('passes client departures, system hints and disposal to every group', async () => {
    const seen: string[] = []
    const hooks = (name: string): Partial<AnyCommandGroup> => ({
      clientGone: (id) => void seen.push(`${name} gone ${id}`),
      onSystemEvent: (event) => void seen.push(`${name} ${event}`),
      dispose: () => void seen.push(`${name} disposed`)
    })
    const dispatcher = createDispatcher([{ ...withoutAppInfo(), ...hooks('a') }, { ...appInfo, ...hooks('b') }], passThrough)
    dispatcher.clientGone('w1')
    dispatcher.onSystemEvent('resume')
    await dispatcher.dispose()
    expect(seen).toEqual(['a gone w1', 'b gone w1', 'a resume', 'b resume', 'a disposed', 'b disposed'])
  })
})
