/**
 * What answers on a port inside an emulated instance. Inside is this machine's loopback, where a
 * port like 8888 may belong to something else entirely, so the apps an instance "runs" are the
 * emulator's own: Jupyter's port 8888 is a page for that instance (instance id on it), served on
 * a loopback port the emulator picks. Every other port is this machine's 127.0.0.1:<port>, so a
 * server started in the instance's terminal (`python3 -m http.server 6006`) or by a test answers
 * there. SSH direct-tcpip (tunnels, `ssh -L`) and the node-port forwarders both ask here.
 */
import { createServer, type Server } from 'node:http'
import { closeServer, listenOnLoopback } from './listen'
import { PAGE_HEADERS, jupyterPage } from './notebook-pages'
import type { ForwardTarget } from './tcp-forwarder'

export const JUPYTER_PORT = 8888

export interface InstanceApps {
  /** Where a connection to `port` inside the instance goes. */
  target(port: number): ForwardTarget
  close(): Promise<void>
}

export async function startInstanceApps(instanceId: string): Promise<InstanceApps> {
  const jupyter: Server = createServer((request, response) => {
    const ok = request.method === 'GET' || request.method === 'HEAD'
    response.writeHead(ok ? 200 : 405, { ...PAGE_HEADERS, ...(ok ? {} : { allow: 'GET, HEAD' }) })
    response.end(request.method === 'HEAD' ? undefined : jupyterPage(instanceId))
  })
  const jupyterPort = await listenOnLoopback(jupyter, 0)
  return {
    target: (port) => ({ host: '127.0.0.1', port: port === JUPYTER_PORT ? jupyterPort : port }),
    async close() {
      jupyter.closeAllConnections()
      await closeServer(jupyter)
    }
  }
}
