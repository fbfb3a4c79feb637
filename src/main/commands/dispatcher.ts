/**
 * Answers the contract's commands: checks the input with its schema (input-schemas.ts), runs
 * the command's handler through the re-login gate, and turns whatever it throws into an error
 * Result; it never rejects. Takes the contract's notices too: checked the same way, handled,
 * never answered; an invalid or failing one is dropped and logged. The handler tables come from
 * the command groups (one per area, each a plain function of the parts it needs; the list is
 * commands/index.ts) and are complete by type: a command or notice of the contract that no group
 * handles does not compile.
 *
 * The door is made before the groups are handed to it (`serve`), so a part built before them can
 * already hold a command to run later: the cost guard stops an instance through `instances.stop`,
 * as the Stop button does, while the cost commands are made from the guard.
 */
import type { CommandInput, CommandName, CommandResult, NoticeInput, NoticeName } from '../../shared/contract'
import { fail, ok, type Result } from '../../shared/errors'
import type { ClientContext, CoreLog } from '../core-types'
import { toErrorInfo } from '../error-info'
import { INPUT_SCHEMAS, NOTICE_SCHEMAS, describeInputError } from './input-schemas'

/** A plain async function that answers the value or throws CloudError / AppError. */
export type CommandHandler<C extends CommandName> = (input: CommandInput<C>, context: ClientContext) => Promise<CommandResult<C>>

/** Every command's handler: no `?`, so a table that misses one is a compile error. */
export type CommandHandlers = { [C in CommandName]: CommandHandler<C> }

/** Handles a one-way notice; what it throws (or rejects with) is logged, never answered. */
export type NoticeHandler<N extends NoticeName> = (input: NoticeInput<N>, context: ClientContext) => void | Promise<void>

/** Every notice's handler, complete by type like the commands'. */
export type NoticeHandlers = { [N in NoticeName]: NoticeHandler<N> }

/**
 * One area's commands (src/main/commands/*.ts): `C` names the commands it answers, `N` the
 * notices it takes (none unless named). Only handlers: what lives on (a connection, a tab) is a
 * part's, which hears the app's hints itself.
 */
export type CommandGroup<C extends CommandName, N extends NoticeName = never> = {
  handlers: { [K in C]: CommandHandler<K> }
} & ([N] extends [never] ? { notices?: never } : { notices: { [K in N]: NoticeHandler<K> } })

export type AnyCommandGroup = { handlers: Partial<CommandHandlers>; notices?: Partial<NoticeHandlers> }

type Handled<G> = G extends { handlers: infer H } ? keyof H & CommandName : never
type Taken<G> = G extends { notices: infer H } ? keyof H & NoticeName : never
/** The commands and notices no group of `G` handles. */
export type Unhandled<G extends readonly AnyCommandGroup[]> =
  Exclude<CommandName, Handled<G[number]>> | Exclude<NoticeName, Taken<G[number]>>
/** Accepts the groups only when together they handle everything; else names what is missing. */
export type EveryCommandHandled<G extends readonly AnyCommandGroup[]> = [Unhandled<G>] extends [never]
  ? unknown
  : { 'commands or notices without a handler': Unhandled<G> }

/** The groups' handlers as one table of each kind. Throws when two groups handle the same name. */
export function handlerTables<const G extends readonly AnyCommandGroup[]>(
  groups: G & EveryCommandHandled<G>
): { commands: CommandHandlers; notices: NoticeHandlers } {
  const commands: Partial<Record<string, unknown>> = {}
  const notices: Partial<Record<string, unknown>> = {}
  const add = (table: Partial<Record<string, unknown>>, entries: object | undefined): void => {
    for (const [name, handler] of Object.entries(entries ?? {})) {
      if (Object.hasOwn(table, name)) throw new Error(`Two command groups handle ${name}`)
      table[name] = handler
    }
  }
  for (const group of groups) {
    add(commands, group.handlers)
    add(notices, group.notices)
  }
  return { commands: commands as CommandHandlers, notices: notices as NoticeHandlers }
}

export interface DispatcherOptions {
  /** Runs one attempt of a command: the account's re-login gate. */
  run<T>(command: CommandName, attempt: () => Promise<T>): Promise<T>
  log?: CoreLog | undefined
}

export interface Dispatcher {
  /** Answers one contract command. Validates input; never rejects. */
  handle<C extends CommandName>(command: C, input: unknown, context: ClientContext): Promise<Result<CommandResult<C>>>
  /** Takes one notice. Validates input; answers nothing, throws nothing. */
  notice<N extends NoticeName>(notice: N, input: unknown, context: ClientContext): void
  /** Hands the door its groups, once; until then every command is answered "still starting". */
  serve<const G extends readonly AnyCommandGroup[]>(groups: G & EveryCommandHandled<G>): void
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  let handlers: ReturnType<typeof handlerTables> | undefined
  const { run, log } = options
  /** A notice that could not be taken: an internal failure is an error, anything else routine. */
  const dropped = (notice: string, error: unknown): void => {
    const info = toErrorInfo(error)
    if (info.kind === 'internal') log?.error(`${notice} failed`, { error: error instanceof Error ? error.stack : String(error) })
    else log?.info(`${notice} dropped: ${info.message}`)
  }
  return {
    serve(groups) {
      if (handlers) throw new Error('The dispatcher already serves its command groups')
      handlers = handlerTables(groups)
    },
    async handle<C extends CommandName>(command: C, input: unknown, context: ClientContext): Promise<Result<CommandResult<C>>> {
      // Own keys only: a name such as `__proto__` from the wire is unknown, not Object's.
      if (!Object.hasOwn(INPUT_SCHEMAS, command)) return fail({ kind: 'bad-input', message: `Unknown command ${String(command)}.` })
      const parsed = INPUT_SCHEMAS[command].safeParse(input)
      if (!parsed.success) return fail({ kind: 'bad-input', ...describeInputError(parsed.error) })
      if (!handlers) return fail({ kind: 'internal', message: 'Cloud Tray is still starting. Try again in a moment.' })
      const handler = handlers.commands[command] as unknown as (input: unknown, context: ClientContext) => Promise<CommandResult<C>>
      try {
        return ok(await run(command, () => handler(parsed.data, context)))
      } catch (error) {
        const info = toErrorInfo(error)
        if (info.kind === 'internal') log?.error(`${command} failed`, { error: error instanceof Error ? error.stack : String(error) })
        return fail(info)
      }
    },
    notice<N extends NoticeName>(notice: N, input: unknown, context: ClientContext): void {
      if (!Object.hasOwn(NOTICE_SCHEMAS, notice)) {
        log?.warn('unknown notice dropped', { notice: String(notice).slice(0, 100) })
        return
      }
      const parsed = NOTICE_SCHEMAS[notice].safeParse(input)
      if (!parsed.success) {
        log?.warn(`${notice} dropped: ${describeInputError(parsed.error).message}`)
        return
      }
      if (!handlers) return void log?.info(`${notice} dropped: the app is still starting`)
      const handler = handlers.notices[notice] as unknown as (input: unknown, context: ClientContext) => void | Promise<void>
      try {
        void Promise.resolve(handler(parsed.data, context)).catch((error: unknown) => dropped(notice, error))
      } catch (error) {
        dropped(notice, error)
      }
    }
  }
}
