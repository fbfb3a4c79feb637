import { describe, expect, it } from 'vitest'
import { COMMAND_NAMES, NOTICE_NAMES, type CommandName, type NoticeName } from '../../shared/contract'
import { AppError } from '../app-error'
import type { ClientContext, CoreLog } from '../core-types'
import {
  createDispatcher,
  handlerTables,
  type AnyCommandGroup,
  type CommandGroup,
  type CommandHandlers,
  type Dispatcher,
  type DispatcherOptions,
  type EveryCommandHandled,
  type NoticeHandlers
} from './dispatcher'

type Everything = CommandGroup<CommandName, NoticeName>

/** A group answering every command with its own name and taking every notice, as a test needs them. */
function everything(): Everything {
  const handlers = Object.fromEntries(COMMAND_NAMES.map((name) => [name, async () => name]))
  const notices = Object.fromEntries(NOTICE_NAMES.map((name) => [name, () => {}]))
  return { handlers, notices } as unknown as Everything
}

function withoutAppInfo(): CommandGroup<Exclude<CommandName, 'app.info'>, NoticeName> {
  const { 'app.info': _gone, ...handlers } = everything().handlers
  return { handlers, notices: everything().notices }
}

function withoutAck(): CommandGroup<CommandName, Exclude<NoticeName, 'ssh.ack'>> {
  const { 'ssh.ack': _gone, ...notices } = everything().notices
  return { handlers: everything().handlers, notices }
}

function recordingLog(lines: string[]): CoreLog {
  const add = (level: string) => (message: string) => void lines.push(`${level} ${message}`)
  return { info: add('info'), warn: add('warn'), error: add('error'), secrets: { add: () => {}, delete: () => {} } }
}

const appInfo: CommandGroup<'app.info'> = {
  handlers: { 'app.info': async () => ({ version: '1' }) }
}

/** A handler the user gets a refusal from, and one that fails inside the app. */
const refuse = (message: string) => async (): Promise<never> => {
  throw new AppError('not-allowed', message)
}
/** As the SSH manager refuses: at once, not in a promise. */
const refuseAtOnce = (message: string) => (): never => {
  throw new AppError('not-allowed', message)
}
const crash = async (): Promise<never> => {
  throw new TypeError('boom')
}

const passThrough: DispatcherOptions = { run: (_command, attempt) => attempt() }
const context: ClientContext = { clientId: 'c1' }

/** A dispatcher serving `groups`, as core.ts makes it. */
function serving<const G extends readonly AnyCommandGroup[]>(groups: G & EveryCommandHandled<G>, options = passThrough): Dispatcher {
  const dispatcher = createDispatcher(options)
  dispatcher.serve(groups)
  return dispatcher
}

describe('the handler table', () => {
  it('is complete by type: a command without a handler does not compile', () => {
    // @ts-expect-error 'app.info' has no handler, so this is not a CommandHandlers table
    const incomplete: CommandHandlers = { ...withoutAppInfo().handlers }
    // @ts-expect-error the groups leave 'app.info' without a handler
    expect(() => handlerTables([withoutAppInfo()])).not.toThrow()
    // @ts-expect-error the same for a dispatcher serving them
    createDispatcher(passThrough).serve([withoutAppInfo()])
    expect(Object.keys(handlerTables([withoutAppInfo(), appInfo]).commands).sort()).toEqual([...COMMAND_NAMES].sort())
    expect(incomplete).toBeDefined()
  })

  it('is complete by type for notices too', () => {
    // @ts-expect-error 'ssh.ack' has no handler
    const incomplete: NoticeHandlers = { ...withoutAck().notices }
    // @ts-expect-error the groups take no 'ssh.ack'
    createDispatcher(passThrough).serve([withoutAck()])
    expect(incomplete).toBeDefined()
  })

  it('refuses two groups answering the same command', () => {
    expect(() => handlerTables([everything(), appInfo])).toThrow(/Two command groups handle app.info/)
  })
})

describe('the dispatcher', () => {
  it('checks the input by its schema before any handler runs', async () => {
    const calls: unknown[] = []
    const group = {
      ...everything(),
      handlers: { ...everything().handlers, 'instances.stop': async (input: { instanceId: string }) => (calls.push(input), input) }
    }
    const dispatcher = serving([group])
    expect(await dispatcher.handle('instances.stop', { instanceId: 3 }, context)).toMatchObject({
      ok: false,
      error: { kind: 'bad-input', field: 'instanceId' }
    })
    expect(await dispatcher.handle('instances.stop', { instanceId: 'i-1' }, context)).toEqual({ ok: true, value: { instanceId: 'i-1' } })
    expect(calls).toEqual([{ instanceId: 'i-1' }])
  })

  it.each(['nope', '__proto__', 'constructor', 'hasOwnProperty'])(
    'answers an unknown command %j with bad-input, never a rejection',
    async (name) => {
      const dispatcher = serving([everything()])
      expect(await dispatcher.handle(name as CommandName, undefined, context)).toMatchObject({ ok: false, error: { kind: 'bad-input' } })
    }
  )

  it('runs each command through the gate it is given, and turns throws into error results', async () => {
    const ran: string[] = []
    const lines: string[] = []
    const failing = { ...everything(), handlers: { ...everything().handlers, 'session.get': refuse('No.'), 'app.info': crash } }
    const run: DispatcherOptions['run'] = (command, attempt) => {
      ran.push(command)
      return attempt()
    }
    const dispatcher = serving([failing], { run, log: recordingLog(lines) })
    expect(await dispatcher.handle('session.get', undefined, context)).toEqual({
      ok: false,
      error: { kind: 'not-allowed', message: 'No.' }
    })
    expect(await dispatcher.handle('app.info', undefined, context)).toMatchObject({
      ok: false,
      error: { kind: 'internal', message: expect.stringContaining('boom') }
    })
    expect(ran).toEqual(['session.get', 'app.info'])
    // Only the unexpected failure is logged as an error; a refusal is the user's answer.
    expect(lines).toEqual(['error app.info failed'])
  })

  it('hands a valid notice to its handler, and answers nothing', () => {
    const taken: unknown[] = []
    const group = {
      ...everything(),
      notices: { ...everything().notices, 'ssh.ack': (input: unknown, ctx: ClientContext) => void taken.push([input, ctx]) }
    }
    const dispatcher = serving([group])
    expect(dispatcher.notice('ssh.ack', { terminalId: 't', bytes: 10 }, context)).toBeUndefined()
    expect(taken).toEqual([[{ terminalId: 't', bytes: 10 }, context]])
  })

  it('drops and logs an invalid, unknown or failing notice; an internal failure is an error', async () => {
    const lines: string[] = []
    const taken: unknown[] = []
    const group = {
      ...everything(),
      notices: {
        ...everything().notices,
        'ssh.ack': (input: unknown) => void taken.push(input),
        'ssh.input': refuseAtOnce('This terminal is closed.'),
        'ssh.resize': crash
      }
    }
    const dispatcher = serving([group], { ...passThrough, log: recordingLog(lines) })
    dispatcher.notice('ssh.ack', { terminalId: 't', bytes: -5 }, context)
    dispatcher.notice('__proto__' as NoticeName, {}, context)
    dispatcher.notice('ssh.input', { terminalId: 't', data: 'x' }, context)
    dispatcher.notice('ssh.resize', { terminalId: 't', cols: 80, rows: 24 }, context)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(taken).toEqual([])
    expect(lines).toEqual([
      expect.stringMatching(/^warn ssh.ack dropped: bytes: /),
      'warn unknown notice dropped',
      'info ssh.input dropped: This terminal is closed.',
      'error ssh.resize failed'
    ])
  })

  it('answers "still starting" until it serves its groups, and serves them once', async () => {
    const lines: string[] = []
    const dispatcher = createDispatcher({ ...passThrough, log: recordingLog(lines) })
    expect(await dispatcher.handle('app.info', undefined, context)).toMatchObject({
      ok: false,
      error: { kind: 'internal', message: expect.stringContaining('still starting') }
    })
    dispatcher.notice('ssh.ack', { terminalId: 't', bytes: 1 }, context)
    expect(lines).toEqual(['info ssh.ack dropped: the app is still starting'])
    dispatcher.serve([everything()])
    expect(await dispatcher.handle('app.info', undefined, context)).toEqual({ ok: true, value: 'app.info' })
    expect(() => dispatcher.serve([everything()])).toThrow(/already serves/)
  })
})
