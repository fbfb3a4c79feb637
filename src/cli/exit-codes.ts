/**
 * What `cloud-tray` exits with, for scripts (documented in the README's command line section).
 * An error is one line on stderr in a person's words; the code says what kind it was.
 */
import type { ErrorInfo } from '../shared/errors'

export const EXIT = {
  ok: 0,
  /** Anything else that went wrong: the network, the app, a file. */
  failure: 1,
  /** The command line was wrong, or a question needs `--yes` where nobody can answer. */
  usage: 2,
  /** The app is signed out, or its session ended. */
  notSignedIn: 3,
  /** No instance, template or tunnel by that name or id. */
  notFound: 4,
  /** The cloud (or the app) refused: an invalid field, a stopped instance, a template out of stock. */
  refused: 5,
  /** A name matched several instances. */
  ambiguous: 6,
  /** The app is not running (or its socket refused this command line). */
  notRunning: 7,
  /** `launch --wait`: the instance did not reach Running (it failed, stopped or is stuck). */
  didNotStart: 8,
  /** Ctrl-C. */
  interrupted: 130,
  /** `ssh`: the connection failed or was lost (OpenSSH's own code); otherwise the remote command's status. */
  ssh: 255
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT] | number

/** A failure the command line reports: its line on stderr and its exit code. */
export class CliError extends Error {
  override name = 'CliError'
  constructor(
    message: string,
    readonly code: ExitCode = EXIT.failure
  ) {
    super(message)
  }
}

/** The exit code for an error the app answered. */
export function exitCodeOf(error: ErrorInfo): ExitCode {
  switch (error.kind) {
    case 'not-logged-in':
    case 'no-session':
    case 'bad-credentials':
      return EXIT.notSignedIn
    case 'not-found':
      return EXIT.notFound
    case 'invalid-request':
    case 'already-exists':
    case 'not-allowed':
    case 'maybe-created':
    case 'out-of-stock':
      return EXIT.refused
    case 'bad-input':
      return EXIT.usage
    default:
      return EXIT.failure
  }
}

/** An app error as a CliError: its message, its code. */
export function cliErrorOf(error: ErrorInfo): CliError {
  return new CliError(error.message, exitCodeOf(error))
}
