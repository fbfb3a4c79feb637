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

const statuses = new WeakMap<ClientChannel, { status: ExitStatus; signal?: string }>()

/** Starts listening for `channel`'s exit status (once; later calls do nothing). */
export function watchShellExit(channel: ClientChannel): void {
  if (statuses.has(channel)) return
  const heard: { status: ExitStatus; signal?: string } = { status: undefined }
  statuses.set(channel, heard)
  channel.once('exit', (code: number | null, signal?: string) => {
    heard.status = typeof code === 'number' ? code : null
    // ssh2 passes the server's signal name with "SIG" in front; a server string, so only a plain name is kept.
    if (typeof code !== 'number' && typeof signal === 'string') {
      const name = signal.replace(/^SIG/, '')
      heard.signal = /^[A-Z0-9]{1,16}$/.test(name) ? name : 'an unknown signal'
    }
  })
}

/** The exit status `channel` reported, if any (it must have been watched). */
export function shellExitOf(channel: ClientChannel): ExitStatus {
  return statuses.get(channel)?.status
}

/** The signal that ended `channel`'s command, when the server named one. */
export function shellSignalOf(channel: ClientChannel): string | undefined {
  return statuses.get(channel)?.signal
}
