/**
 * A shell's or a command's exit status, heard from the moment its channel opens. ssh2 emits
 * `exit` while it parses the packet; a shell that fails at once (no such shell: 127), or a quick
 * command on a busy machine, sends its exit-status in the same read as the channel's
 * confirmation, so it is emitted before anyone awaiting the channel could listen: the tab would
 * say "the server closed this shell" instead of why, and exec would answer no exit code. Whoever
 * opens the channel watches it in ssh2's callback (links/connection.ts); the terminal session and
 * exec read the status at close.
 */
import type { ClientChannel } from 'ssh2'

/** undefined: no exit status came (yet); null: the shell ended by a signal. */
type ExitStatus = number | null | undefined

const statuses = new WeakMap<ClientChannel, { status: ExitStatus; signal?: string }>()

/** Starts listening for `channel`'s exit status (once; later calls do nothing). */
export function watchShellExit(channel: ClientChannel): void {
  if (statuses.has(channel)) return
  const heard: { status: ExitStatus; signal?: string } = { status: undefined }
  statuses.set(channel, heard)
  channel.once('exit', (code: number | null, signal?: string) => {
    heard.status = typeof code === 'number' ? code : null
    if (signal) heard.signal = signal
  })
}

/** The exit status `channel` reported, if any (it must have been watched). */
export function shellExitOf(channel: ClientChannel): ExitStatus {
  return statuses.get(channel)?.status
}

/** The signal that ended `channel`'s command (`SIGTERM`…), if one did. */
export function shellSignalOf(channel: ClientChannel): string | undefined {
  return statuses.get(channel)?.signal
}

/**
 * A signal as a command line reports it: the plain name (`TERM`). ssh2 passes the server's name
 * with "SIG" in front; it is a server string, so anything but a short plain name is not passed on.
 */
export function signalName(signal: string | undefined): string | undefined {
  if (signal === undefined) return undefined
  const name = signal.replace(/^SIG/, '')
  return /^[A-Z0-9]{1,16}$/.test(name) ? name : 'an unknown signal'
}
