/**
 * What every subcommand does first: reach the running app (starting it in the tray with
 * `--start`), make sure it is signed in, and turn its answers into values or CliErrors.
 */
import type { CommandInput, CommandName, CommandResult, InstancesSnapshot } from '../shared/contract'
import { AppNotRunningError, connectToApp, type AppClient } from './app-client'
import { CliError, EXIT, cliErrorOf } from './exit-codes'
import type { CliContext } from './context'
import { startApp } from './start-app'

export type { CliContext } from './context'

export const NOT_RUNNING_HINT = 'Start Cloud Tray (it stays in the tray), or run this again with --start to start it there.'

/** Connects to the app; with `--start`, starts it first when it is not running. */
export async function connect(context: CliContext): Promise<AppClient> {
  try {
    return await connectToApp(context.place)
  } catch (error) {
    if (!(error instanceof AppNotRunningError) || !error.absent) throw error
    if (!context.start) throw new AppNotRunningError(`Cloud Tray is not running. ${NOT_RUNNING_HINT}`, true)
  }
  await startApp(context)
  return connectToApp(context.place)
}

/** Runs `work` with a connection to the app, closed afterwards. */
export async function withApp<T>(context: CliContext, work: (app: AppClient) => Promise<T>): Promise<T> {
  const app = await connect(context)
  try {
    return await work(app)
  } finally {
    app.close()
  }
}

/**
 * A command's value, or its error as a CliError. A command that meets an ended session waits in
 * the app for the user to sign in again (contract.ts): the command line does not wait with it.
 */
export async function call<C extends CommandName>(
  app: AppClient,
  command: C,
  ...input: CommandInput<C> extends void ? [] : [CommandInput<C>]
): Promise<CommandResult<C>> {
  app.subscribe('session.expired')
  let off: () => void = () => undefined
  const expired = new Promise<never>((_, reject) => {
    off = app.on('session.expired', () =>
      reject(
        new CliError(
          'Cloud Tray’s session ended while this ran: sign in again in the app. The app keeps this request and runs it once you are signed in as the same user.',
          EXIT.notSignedIn
        )
      )
    )
  })
  try {
    const result = await Promise.race([app.invoke(command, ...input), expired])
    if (!result.ok) throw cliErrorOf(result.error)
    return result.value
  } finally {
    off()
  }
}

/** Fails with exit 3 unless the app is signed in. */
export async function requireSignedIn(app: AppClient): Promise<void> {
  const session = await call(app, 'session.get')
  if (session.status === 'signed-in') return
  throw new CliError(
    session.status === 'expired'
      ? 'Cloud Tray’s session has ended: sign in again in the app, then try again.'
      : 'Cloud Tray is signed out: sign in from the tray or the window, then try again.',
    EXIT.notSignedIn
  )
}

/** The instance list as the app knows it, polled once if the app has not read it yet. */
export async function instanceSnapshot(app: AppClient): Promise<InstancesSnapshot> {
  const snapshot = await call(app, 'instances.get')
  return snapshot.fetchedAt === null ? call(app, 'instances.refresh') : snapshot
}

/**
 * requireSignedIn and instanceSnapshot in one round trip (the commands go out together; the
 * app answers both from memory), with `more` asked at the same time: what most commands start with.
 */
export async function signedInSnapshot<T>(app: AppClient, more: () => Promise<T>): Promise<[InstancesSnapshot, T]> {
  const [signedIn, snapshot, extra] = await Promise.allSettled([requireSignedIn(app), call(app, 'instances.get'), more()])
  if (signedIn.status === 'rejected') throw signedIn.reason
  if (snapshot.status === 'rejected') throw snapshot.reason
  if (extra.status === 'rejected') throw extra.reason
  return [snapshot.value.fetchedAt === null ? await call(app, 'instances.refresh') : snapshot.value, extra.value]
}
