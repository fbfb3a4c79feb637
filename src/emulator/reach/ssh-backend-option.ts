/** Parses the CLI's `--ssh-backend HOST:PORT` (IPv6 as `[::1]:22`). */
import type { ForwardTarget } from './tcp-forwarder'

export function parseSshBackend(value: string): ForwardTarget {
  const match = /^(?:\[([^\]]+)\]|([^:\s]+)):(\d{1,5})$/.exec(value.trim())
  const port = match ? Number(match[3]) : NaN
  const host = match ? (match[1] ?? match[2]) : undefined
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`--ssh-backend wants HOST:PORT of an SSH server, e.g. 127.0.0.1:22 (got "${value}").`)
  }
  return { host, port }
}
