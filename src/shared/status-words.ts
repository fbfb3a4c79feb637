/**
 * Instance statuses in the words a person uses ("Downloading image", not `PullingImage`): the
 * list, the badges, the tray and the notifications say these; the details keep the raw value.
 * A status the app does not know is shown as it came (one line, bounded).
 */
import { knownStatus, type KnownInstanceStatus } from './instance-rules'

const WORDS: Record<KnownInstanceStatus, string> = {
  Running: 'Running',
  Stopped: 'Stopped',
  Starting: 'Starting',
  StartingFailed: 'Failed to start',
  Initializing: 'Preparing',
  InitializationFailed: 'Failed to prepare',
  Archived: 'Archived',
  Released: 'Released',
  PullingImage: 'Downloading image',
  Restarting: 'Restarting',
  Stopping: 'Stopping'
}

export function statusWords(status: string): string {
  const known = knownStatus(status)
  if (known) return WORDS[known]
  const line = status.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
  return line === '' ? 'Unknown' : line.length > 40 ? `${line.slice(0, 39)}…` : line
}
