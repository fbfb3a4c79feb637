/**
 * The GPU probes' runner on the app's shared SSH links (src/main/ssh/links/links.ts `exec`): the
 * instance's connection when one is up, else one exec-only connection kept between probes, and
 * never a prompt. What exec cannot do becomes a ProbeUnavailable in the user's words, marked
 * `needsUser` when only the user can fix it (a host key to trust, a passphrase, a key the instance
 * refuses), so the probes retry those rarely and the idle rule counts them as missed, never idle.
 */
import { GPU_OUTPUT_BYTES, ProbeUnavailable, type GpuRunner } from './gpu-probe'

/** What the runner needs of SshLinks. */
export interface ExecLinks {
  exec(
    instanceId: string,
    command: string,
    options?: { timeoutMs?: number; maxOutputBytes?: number }
  ): Promise<{ exitCode: number | null; stdout: string; stderr: string; truncated?: true }>
  /** Each connection that comes up, by instance (a host key just trusted, a reconnect). */
  onConnected(listener: (instanceId: string) => void): () => void
}

/** A probe waits this long at most: it must never run into the next one. */
export const PROBE_TIMEOUT_MS = 20_000

/** Why a background connection failed, when it is the user's to fix (ssh/links/exec.ts ExecFailure). */
const NEEDS_USER = new Set(['auth', 'host-key', 'host-key-unknown', 'needs-passphrase', 'cancelled'])

export function execRunner(links: ExecLinks): GpuRunner {
  return {
    async run(instanceId, command) {
      try {
        // The answer is read from GPU_OUTPUT_BYTES at most: an instance printing more is cut off there.
        return await links.exec(instanceId, command, { timeoutMs: PROBE_TIMEOUT_MS, maxOutputBytes: GPU_OUTPUT_BYTES })
      } catch (error) {
        const reason = (error as { reason?: unknown }).reason
        const message = error instanceof Error ? error.message : String(error)
        // The links' words already say what to do ("Open a terminal to the instance once…").
        throw new ProbeUnavailable(message, typeof reason === 'string' && NEEDS_USER.has(reason))
      }
    },
    onReady: (listener) => links.onConnected(listener)
  }
}
