/**
 * Questions on the user's terminal (stderr, so stdout stays the command's output): yes or no
 * before something costly or final, and the SSH prompts the app hands to this command line.
 * Where nobody can answer (stdin or stderr is not a terminal), nothing is asked.
 */
import { CliError, EXIT } from './exit-codes'
import type { Io } from './output'

export function canAsk(io: Io): boolean {
  return io.input.isTTY === true && io.err.isTTY === true
}

export class AskCancelled extends CliError {
  constructor() {
    super('Cancelled.', EXIT.interrupted)
  }
}

/** One line typed at the terminal, echoed unless `secret`; Ctrl-C cancels (AskCancelled), Ctrl-D ends it. */
export function askLine(io: Io, prompt: string, secret = false): Promise<string> {
  const input = io.input
  io.err.write(prompt)
  return new Promise((resolve, reject) => {
    let line = ''
    const wasRaw = input.isRaw === true
    input.setRawMode?.(true)
    const finish = (): void => {
      input.off('data', onData)
      input.setRawMode?.(wasRaw)
      input.pause()
    }
    const onData = (chunk: Buffer): void => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish()
          io.err.write('\n')
          resolve(line)
          return
        }
        if (char === '\u0003') {
          finish()
          io.err.write('\n')
          reject(new AskCancelled())
          return
        }
        if (char === '\u007f' || char === '\b') {
          if (line.length > 0) {
            line = [...line].slice(0, -1).join('')
            if (!secret) io.err.write('\b \b')
          }
          continue
        }
        if (char < ' ') continue
        line += char
        if (!secret) io.err.write(char)
      }
    }
    input.on('data', onData)
    input.resume()
  })
}

/**
 * Asks before an action, unless `yes`. Where nobody can answer it refuses (exit 2) rather than
 * guess, and says to pass --yes.
 */
export async function confirm(io: Io, question: string, yes: boolean | undefined): Promise<boolean> {
  if (yes) return true
  if (!canAsk(io)) throw new CliError(`${question} Nobody can answer here (not a terminal): pass --yes to go ahead.`, EXIT.usage)
  const answer = (await askLine(io, `${question} [y/N] `)).trim().toLowerCase()
  return answer === 'y' || answer === 'yes'
}

/** Asks for `name` typed out before something final, unless `yes` (refused where nobody can answer, as confirm). */
export async function confirmByName(io: Io, question: string, name: string, yes: boolean | undefined): Promise<boolean> {
  if (yes) return true
  if (!canAsk(io)) throw new CliError(`${question} Nobody can answer here (not a terminal): pass --yes to go ahead.`, EXIT.usage)
  return (await askLine(io, `${question}\nType its name to go ahead: `)) === name
}
