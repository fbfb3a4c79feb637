/**
 * Local ports for tunnels: always 127.0.0.1 (never every interface: a tunnel is a way into the
 * user's instance, not a service for the network), a port in use told apart from other
 * failures, and a free port to offer instead, near the one asked for when possible.
 */
import { once } from 'node:events'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { AppError } from '../../app-error'

export const LOOPBACK = '127.0.0.1'

/** How far above a taken port to look for a free neighbour before letting the system choose. */
const NEIGHBOURS = 10

/** The port cannot be had: another program has it, or (below 1024) it needs administrator rights. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly why: 'in-use' | 'privileged'
  ) {
    super(`port ${port} is ${why === 'in-use' ? 'in use' : 'privileged'}`)
    this.name = 'PortInUseError'
  }
}

/** Listens on 127.0.0.1:`port` (0: any free port) and answers the port bound. */
export async function listenLocal(server: Server, port: number): Promise<number> {
  server.listen({ port, host: LOOPBACK, exclusive: true })
  try {
    await once(server, 'listening')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') throw new PortInUseError(port, 'in-use')
    if (code === 'EACCES') throw new PortInUseError(port, 'privileged')
    throw error
  }
  return (server.address() as AddressInfo).port
}

/** Whether `port` can be listened on now. */
export async function isPortFree(port: number): Promise<boolean> {
  const probe = createServer()
  try {
    await listenLocal(probe, port)
    return true
  } catch {
    return false
  } finally {
    await new Promise<void>((resolve) => probe.close(() => resolve()))
  }
}

/** A free port to offer instead of `port`: the next few above it, else one the system picks. */
export async function suggestPort(port: number): Promise<number> {
  for (let candidate = port + 1; candidate <= Math.min(65_535, port + NEIGHBOURS); candidate++) {
    if (await isPortFree(candidate)) return candidate
  }
  const probe = createServer()
  try {
    return await listenLocal(probe, 0)
  } finally {
    await new Promise<void>((resolve) => probe.close(() => resolve()))
  }
}

/** The refusal a user sees for a port that cannot be had, naming one to use instead. */
export function portRefusal(error: PortInUseError, suggestion: number): AppError {
  const why =
    error.why === 'in-use'
      ? `Port ${error.port} on this computer is already in use by another program.`
      : `Port ${error.port} on this computer needs administrator rights.`
  return new AppError('not-allowed', `${why} Use ${suggestion} instead, or choose another port.`, { field: 'localPort' })
}
