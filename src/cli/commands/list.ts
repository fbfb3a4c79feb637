/** `cloud-tray list [--json] [--all] [--names]`: the instances as the app knows them, with status, type, region, uptime and cost so far. */
import { call, signedInSnapshot, withApp, type CliContext } from '../app'
import { LIST_HEADER, LIST_JSON_VERSION, instanceJson, isLive, listRow, metersAt, type ListJson } from '../instance-view'
import { json, shown, table } from '../output'

export interface ListOptions {
  json?: boolean
  all?: boolean
  names?: boolean
}

export async function listCommand(context: CliContext, options: ListOptions): Promise<number> {
  return withApp(context, async (app) => {
    // One round trip: the app answers from memory.
    const [snapshot, cost] = await signedInSnapshot(app, () => call(app, 'cost.get'))
    const meters = metersAt(cost, Date.now())
    const chosen = options.all ? snapshot.instances : snapshot.instances.filter(isLive)
    const rows = chosen.map((instance) => instanceJson(instance, meters.get(instance.instanceMetadata.instanceId)))
    const { out, err } = context.io
    if (options.names) {
      out.write(rows.map((row) => `${shown(row.name)}\n`).join(''))
      return 0
    }
    if (options.json) {
      const answer: ListJson = {
        version: LIST_JSON_VERSION,
        fetchedAt: snapshot.fetchedAt === null ? null : new Date(snapshot.fetchedAt).toISOString(),
        instances: rows
      }
      out.write(json(answer))
      return 0
    }
    if (rows.length === 0) out.write(options.all || snapshot.instances.length === 0 ? 'No instances.\n' : '')
    else out.write(table(LIST_HEADER, rows.map(listRow)))
    const hidden = snapshot.instances.length - chosen.length
    if (hidden > 0)
      err.write(`${hidden} stopped or released ${hidden === 1 ? 'instance is' : 'instances are'} not shown (--all shows them).\n`)
    for (const row of snapshot.unreadable ?? []) {
      err.write(`A row of the list could not be read${row.instanceId ? ` (${shown(row.instanceId)})` : ''}: ${shown(row.problem)}.\n`)
    }
    return 0
  })
}
