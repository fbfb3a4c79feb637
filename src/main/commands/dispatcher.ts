/**
 * Answers the contract's commands: checks the input with its schema (input-schemas.ts), runs
 * the command's handler through the re-login gate, and turns whatever it throws into an error
 * Result; it never rejects. The handler table comes from the command groups (one per area, each
 * a plain function of the capabilities it needs) and is complete by type: a command of the
 * contract that no group handles does not compile.
 */
import type { CommandInput, CommandName, CommandResult } from '../../shared/contract'
import { fail, ok, type Result } from '../../shared/errors'
import type { ClientContext, ClientId, CoreLog, SystemEvent } from '../core-types'
import { toErrorInfo } from '../error-info'
import { INPUT_SCHEMAS, describeInputError } from './input-schemas'

/** A plain async function that answers the value or throws CloudError / AppError. */
export type CommandHandler<C extends CommandName> = (input: CommandInput<C>, context: ClientContext) => Promise<CommandResult<C>>

/** Every command's handler: no `?`, so a table that misses one is a compile error. */
export type CommandHandlers = { [C in CommandName]: CommandHandler<C> }

/** What a group may do besides answering commands. */
export interface GroupHooks {
  /** A renderer went away: release what it owned (terminal sessions). */
  clientGone?(clientId: ClientId): void
  /** Power and network hints (wake, back online), e.g. to reconnect now instead of after a backoff. */
  onSystemEvent?(event: SystemEvent): void
  dispose?(): Promise<void> | void
}

/** One area's commands (src/main/commands/*.ts), `C` naming the commands it answers. */
export interface CommandGroup<C extends CommandName> extends GroupHooks {
  handlers: { [K in C]: CommandHandler<K> }
}

export type AnyCommandGroup = GroupHooks & { handlers: Partial<CommandHandlers> }

type Handled<G> = G extends { handlers: infer H } ? keyof H & CommandName : never
/** The commands no group of `G` answers. */
export type Unhandled<G extends readonly AnyCommandGroup[]> = Exclude<CommandName, Handled<G[number]>>
/** Accepts the groups only when together they answer every command; else names the ones missing. */
export type EveryCommandHandled<G extends readonly AnyCommandGroup[]> = [Unhandled<G>] extends [never]
  ? unknown
  : { 'commands without a handler': Unhandled<G> }

/** The groups' handlers as one table. Throws when two groups answer the same command. */
export function commandTable<const G extends readonly AnyCommandGroup[]>(groups: G & EveryCommandHandled<G>): CommandHandlers {
  const table: Partial<Record<CommandName, unknown>> = {}
  for (const group of groups) {
    for (const [name, handler] of Object.entries(group.handlers) as [CommandName, unknown][]) {
      if (Object.hasOwn(table, name)) throw new Error(`Two command groups handle ${name}`)
      table[name] = handler
    }
  }
  return table as CommandHandlers
}

export interface DispatcherOptions {
  /** Runs one attempt of a command: the account's re-login gate. */
  run<T>(command: CommandName, attempt: () => Promise<T>): Promise<T>
  log?: CoreLog | undefined
}

export interface Dispatcher {
  /** Answers one contract command. Validates input; never rejects. */
  handle<C extends CommandName>(command: C, input: unknown, context: ClientContext): Promise<Result<CommandResult<C>>>
  clientGone(clientId: ClientId): void
  onSystemEvent(event: SystemEvent): void
  dispose(): Promise<void>
}

export function createDispatcher<const G extends readonly AnyCommandGroup[]>(
  groups: G & EveryCommandHandled<G>,
  options: DispatcherOptions
): Dispatcher {
  const handlers = commandTable<G>(groups)
  const { run, log } = options
  return {
    async handle<C extends CommandName>(command: C, input: unknown, context: ClientContext): Promise<Result<CommandResult<C>>> {
      // Own keys only: a name such as `__proto__` from the wire is unknown, not Object's.
      if (!Object.hasOwn(INPUT_SCHEMAS, command)) return fail({ kind: 'bad-input', message: `Unknown command ${String(command)}.` })
      const parsed = INPUT_SCHEMAS[command].safeParse(input)
      if (!parsed.success) return fail({ kind: 'bad-input', ...describeInputError(parsed.error) })
      const handler = handlers[command] as unknown as (input: unknown, context: ClientContext) => Promise<CommandResult<C>>
      try {
        return ok(await run(command, () => handler(parsed.data, context)))
      } catch (error) {
        const info = toErrorInfo(error)
        if (info.kind === 'internal') log?.error(`${command} failed`, { error: error instanceof Error ? error.stack : String(error) })
        return fail(info)
      }
    },
    clientGone(clientId) {
      for (const group of groups) group.clientGone?.(clientId)
    },
    onSystemEvent(event) {
      for (const group of groups) group.onSystemEvent?.(event)
    },
    async dispose() {
      for (const group of groups) await group.dispose?.()
    }
  }
}
