/** `cloud-tray status NAME|ID [--json]`: one instance in detail. */
import { formatDuration, formatRate } from '../../shared/cost-words'
import { formatDollars } from '../../shared/money'
import { call, signedInSnapshot, withApp, type CliContext } from '../app'
import { resolveInstance } from '../instance-names'
import { instanceJson, metersAt } from '../instance-view'
import { fields, json, shown, shownLines } from '../output'

export async function statusCommand(context: CliContext, name: string, options: { json?: boolean }): Promise<number> {
  return withApp(context, async (app) => {
    const [snapshot, cost] = await signedInSnapshot(app, () => call(app, 'cost.get'))
    const instance = resolveInstance(snapshot.instances, name)
    const id = instance.instanceMetadata.instanceId
    const row = instanceJson(instance, metersAt(cost, Date.now()).get(id))
    if (options.json) {
      context.io.out.write(json(row))
      return 0
    }
    const runtime = instance.instanceRuntimeInfo
    const stuck = snapshot.stuck?.find((entry) => entry.instanceId === id)
    const entries: [string, string][] = [
      ['Name', shown(row.name)],
      ['Id', shown(row.id)],
      ['Status', `${shown(row.statusText)}${row.phase ? ` (${shown(row.phase)})` : ''}`],
      ['Type', `${shown(row.type.name)} (${shown(row.type.id)})`],
      ['Region', `${shown(row.region.name)} (${shown(row.region.code)})`],
      ['Created', new Date(runtime.createAtUnixMs).toLocaleString()],
      ['Billing', `${formatDollars(row.billing.price)} ${shown(row.billing.unit || row.billing.chargeMode)}${row.spot ? ', spot' : ''}`]
    ]
    if (row.uptimeSeconds !== null) entries.push(['Up for', formatDuration(row.uptimeSeconds * 1000)])
    if (row.hourlyRate !== null && row.costSoFar !== null) {
      entries.push([
        'Cost so far',
        `≈ ${formatDollars(row.costSoFar)} at ${formatRate(row.hourlyRate)} (an estimate; your bill is the truth)`
      ])
    }
    if (stuck) entries.push(['Stuck', `since ${new Date(stuck.since).toLocaleTimeString()}: it keeps billing while it waits`])
    const said = runtime.diagnosisMessage || runtime.message
    if (said) entries.push(['Cloud says', shownLines(said).replace(/\n/g, ' ')])
    context.io.out.write(fields(entries))
    return 0
  })
}
