/**
 * A shell's exit status, heard from the moment its channel opens. ssh2 emits `exit` while it
 * parses the packet; a shell that fails at once (no such shell: 127) sends its exit-status in the
 * same read as the channel's confirmation, so it is emitted before anyone awaiting the channel
 * could listen, and the tab would say "the server closed this shell" instead of why. Whoever
 * opens the channel watches it in ssh2's callback; the terminal session reads the status at close.
 */
import type { ClientChannel } from 'ssh2'

/** undefined: no exit status came (yet); null: the shell ended by a signal. */
type ExitStatus = number | null | undefined

const statuses = new WeakMap<ClientChannel, { status: ExitStatus }>()

/** Starts listening for `channel`'s exit status (once; later calls do nothing). */
export function watchShellExit(channel: ClientChannel): void {
  if (statuses.has(channel)) return
  const heard: { status: ExitStatus } = { status: undefined }
  statuses.set(channel, heard)
  channel.once('exit', (code: number | null) => {
    heard.status = typeof code === 'number' ? code : null
  })
}

/** The exit status `channel` reported, if any (it must have been watched). */
export function shellExitOf(channel: ClientChannel): ExitStatus {
  return statuses.get(channel)?.status
}
