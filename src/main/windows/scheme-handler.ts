/**
 * Linux: whether any application takes a URL scheme (vscode:, cursor:). There `shell.openExternal`
 * runs xdg-open without waiting for its result and resolves even when nothing handles the
 * scheme (electron/electron#13842, #20606), so "Open in VS Code" did nothing and said nothing.
 * `xdg-mime query default x-scheme-handler/<scheme>` names the handler's .desktop file, or
 * nothing. Plain Node; the adapter asks before it opens.
 */
import { execFile } from 'node:child_process'

export type RunFile = (file: string, args: string[]) => Promise<string>

const run: RunFile = (file, args) =>
  new Promise((resolve, reject) =>
    execFile(file, args, { timeout: 5_000 }, (error, stdout) => (error ? reject(error) : resolve(String(stdout))))
  )

export class NoSchemeHandlerError extends Error {
  constructor(readonly scheme: string) {
    super(`No application on this desktop opens ${scheme}: links.`)
    this.name = 'NoSchemeHandlerError'
  }
}

/** Resolves when a handler is registered; rejects with NoSchemeHandlerError when none is. */
export async function requireSchemeHandler(url: string, runFile: RunFile = run): Promise<void> {
  const scheme = new URL(url).protocol.slice(0, -1)
  let handler: string
  try {
    handler = (await runFile('xdg-mime', ['query', 'default', `x-scheme-handler/${scheme}`])).trim()
  } catch (error) {
    // No xdg-utils at all: xdg-open could not open it either.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NoSchemeHandlerError(scheme)
    // Any other failure of the query: let xdg-open try.
    return
  }
  if (!handler) throw new NoSchemeHandlerError(scheme)
}
