/**
 * `cloud-tray tunnel NAME PORT[:LOCAL]`, `tunnel --list [--json]`, `tunnel --stop NAME [PORT]`:
 * the app's port tunnels (contract-tunnels.ts). A tunnel started here is the app's own: it stays
 * after this command returns, is remembered per instance, and is listed in the window and the
 * tray. The command waits until it carries connections (answering the SSH questions at the
 * terminal) and prints its local address.
 */
import type { TunnelInfo } from '../../shared/contract-tunnels'
import { formatBytes } from '../../shared/format-bytes'
import type { AppClient } from '../app-client'
import { call, instanceSnapshot, requireSignedIn, withApp, type CliContext } from '../app'
import { AskCancelled } from '../ask'
import { CliError, EXIT } from '../exit-codes'
import { resolveInstance } from '../instance-names'
import { json, shown, table } from '../output'
import { answerPrompts } from './ssh-prompts'

export interface TunnelOptions {
  list?: boolean
  stop?: boolean
  json?: boolean
}

/** `8888` or `8888:18888` (inside:here). */
export function parsePorts(text: string): { remotePort: number; localPort?: number } {
  const match = /^(\d{1,5})(?::(\d{1,5}))?$/.exec(text)
  const remotePort = Number(match?.[1])
  const localPort = match?.[2] === undefined ? undefined : Number(match[2])
  const valid = (port: number | undefined): boolean => port === undefined || (port >= 1 && port <= 65_535)
  if (!match || !valid(remotePort) || !valid(localPort)) {
    throw new CliError(
      `“${shown(text)}” is not a port: give the port inside the instance, and optionally the one here (8888 or 8888:18888).`,
      EXIT.usage
    )
  }
  return localPort === undefined ? { remotePort } : { remotePort, localPort }
}

const START_WAIT_MS = 60_000

export async function tunnelCommand(
  context: CliContext,
  name: string | undefined,
  ports: string | undefined,
  options: TunnelOptions
): Promise<number> {
  if (options.list) {
    if (name !== undefined) throw new CliError('tunnel --list takes no instance: it lists every tunnel.', EXIT.usage)
    return withApp(context, async (app) => {
      const tunnels = await call(app, 'tunnels.list')
      if (options.json) context.io.out.write(json(tunnels))
      else if (tunnels.length === 0) context.io.out.write('No tunnels.\n')
      else context.io.out.write(table(['INSTANCE', 'INSIDE', 'HERE', 'STATE', 'CONNECTIONS', 'IN', 'OUT'], tunnels.map(tunnelRow)))
      return EXIT.ok
    })
  }
  if (name === undefined)
    throw new CliError('Which instance? cloud-tray tunnel NAME PORT[:LOCAL] (or --list, or --stop NAME [PORT]).', EXIT.usage)
  if (options.stop) {
    const remotePort = ports === undefined ? undefined : parsePorts(ports).remotePort
    return withApp(context, async (app) => {
      const instance = await instanceNamed(app, name)
      const id = instance.instanceMetadata.instanceId
      const chosen = (await call(app, 'tunnels.list')).filter(
        (t) => t.instanceId === id && (remotePort === undefined || t.remotePort === remotePort)
      )
      if (chosen.length === 0) {
        throw new CliError(
          `«${shown(instance.instanceSpecInfo.name)}» has no tunnel${remotePort === undefined ? '' : ` for port ${remotePort}`}.`,
          EXIT.notFound
        )
      }
      for (const tunnel of chosen) await call(app, 'tunnels.stop', { tunnelId: tunnel.tunnelId })
      context.io.out.write(chosen.map((t) => `Stopped ${t.localAddress} → port ${t.remotePort} of «${shown(t.instanceName)}».\n`).join(''))
      return EXIT.ok
    })
  }
  if (ports === undefined) throw new CliError('Which port? cloud-tray tunnel NAME PORT[:LOCAL], e.g. 8888 for Jupyter.', EXIT.usage)
  const wanted = parsePorts(ports)
  return withApp(context, async (app) => {
    const instance = await instanceNamed(app, name)
    const instanceId = instance.instanceMetadata.instanceId
    app.subscribe('tunnels')
    let latest: TunnelInfo | undefined
    let tunnelId: string | undefined
    let wake: () => void = () => undefined
    const offTunnels = app.on('tunnels', (list) => {
      const found = list.find((t) =>
        tunnelId ? t.tunnelId === tunnelId : t.instanceId === instanceId && t.remotePort === wanted.remotePort
      )
      if (found) latest = found
      wake()
    })
    // A tunnel started here asks this command line its questions (a host key to check).
    const prompts = answerPrompts(app, context.io, instance.instanceSpecInfo.name, () => wake())
    try {
      const started = await call(app, 'tunnels.start', { instanceId, ...wanted })
      tunnelId = started.tunnelId
      if (!latest || latest.tunnelId !== tunnelId) latest = started
      const deadline = Date.now() + START_WAIT_MS
      while (latest.state === 'starting' || latest.state === 'reconnecting') {
        if (prompts.state.cancelled) throw new AskCancelled()
        if (Date.now() > deadline)
          throw new CliError(`The tunnel did not come up within ${START_WAIT_MS / 1000} s: ${shown(latest.message)}`)
        await new Promise<void>((resolve) => {
          wake = resolve
          setTimeout(resolve, 1000)
        })
        if (latest.state === 'starting' || latest.state === 'reconnecting')
          latest = (await call(app, 'tunnels.list')).find((t) => t.tunnelId === tunnelId) ?? latest
      }
      if (latest.state === 'waiting') throw new CliError(shown(latest.message), EXIT.refused)
      if (latest.state === 'failed') {
        throw new CliError(
          `${prompts.state.refusal ?? shown(latest.message)} The tunnel stays in Cloud Tray and comes up by itself once that is settled; \`cloud-tray tunnel --stop ${name} ${latest.remotePort}\` removes it.`
        )
      }
      context.io.out.write(`${latest.localAddress}\n`)
      if (context.io.err.isTTY) {
        const what = latest.label ? `${latest.label} (port ${latest.remotePort})` : `Port ${latest.remotePort}`
        context.io.err.write(
          `${what} of «${shown(latest.instanceName)}» is at ${latest.url}${latest.note ? ` (${shown(latest.note)})` : ''}. Cloud Tray keeps it open; \`cloud-tray tunnel --stop ${name} ${latest.remotePort}\` stops it.\n`
        )
      }
      return EXIT.ok
    } finally {
      offTunnels()
      prompts.off()
    }
  })
}

async function instanceNamed(app: AppClient, name: string) {
  await requireSignedIn(app)
  return resolveInstance((await instanceSnapshot(app)).instances, name)
}

function tunnelRow(tunnel: TunnelInfo): string[] {
  return [
    shown(tunnel.instanceName),
    `${tunnel.remotePort}${tunnel.label ? ` (${tunnel.label})` : ''}`,
    tunnel.localAddress,
    tunnel.state,
    String(tunnel.connections),
    formatBytes(tunnel.bytesIn),
    formatBytes(tunnel.bytesOut)
  ]
}
