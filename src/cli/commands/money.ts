/**
 * `cloud-tray balance [--json]` and `cloud-tray cost [--json]`: the balance as the app last read it,
 * and the burn rate and runway as the tray words them.
 */
import { burnWords, formatRate } from '../../shared/cost-words'
import { formatDollars } from '../../shared/money'
import { call, requireSignedIn, withApp, type CliContext } from '../app'
import { CliError } from '../exit-codes'
import { metersAt } from '../instance-view'
import { fields, json, shown, table } from '../output'

export async function balanceCommand(context: CliContext, options: { json?: boolean }): Promise<number> {
  return withApp(context, async (app) => {
    await requireSignedIn(app)
    let snapshot = await call(app, 'balance.get')
    if (snapshot.balance === null) snapshot = await call(app, 'balance.refresh')
    const balance = snapshot.balance
    if (!balance) throw new CliError(`The balance could not be read: ${shown(snapshot.error?.message ?? 'the cloud did not say it.')}`)
    if (options.json) {
      context.io.out.write(json({ ...balance, fetchedAt: snapshot.fetchedAt === null ? null : new Date(snapshot.fetchedAt).toISOString() }))
      return 0
    }
    const amount = (value: number | null): string => (value === null ? 'not given' : formatDollars(value))
    const entries: [string, string][] = [
      ['Available', amount(balance.availableBalance ?? balance.balance)],
      ['Vouchers', amount(balance.availableVoucherAmount)],
      ['Credits', amount(balance.availableCreditAmount)]
    ]
    if (snapshot.fetchedAt !== null) entries.push(['Read at', new Date(snapshot.fetchedAt).toLocaleTimeString()])
    context.io.out.write(fields(entries))
    if (snapshot.error) context.io.err.write(`The last read failed (${shown(snapshot.error.message)}); this is the amount from before.\n`)
    return 0
  })
}

export async function costCommand(context: CliContext, options: { json?: boolean }): Promise<number> {
  return withApp(context, async (app) => {
    await requireSignedIn(app)
    const cost = await call(app, 'cost.get')
    const meters = metersAt(cost, Date.now())
    if (options.json) {
      context.io.out.write(
        json({
          burnRatePerHour: cost.burnRatePerHour,
          billedCount: cost.billedCount,
          runwayHours: cost.runway?.hours ?? null,
          available: cost.runway?.available ?? null,
          instances: cost.instances.map((entry) => ({
            id: entry.instanceId,
            name: entry.name,
            hourlyRate: entry.meter.hourlyRate,
            costSoFar: meters.get(entry.instanceId)?.costSoFar ?? entry.meter.costSoFar
          }))
        })
      )
      return 0
    }
    const { out } = context.io
    // The tray's first line: the runway when the balance is known, else the burn rate.
    const line = burnWords(cost)
    if (line === undefined) {
      out.write('Nothing is billed now.\n')
      return 0
    }
    out.write(`${line}\n`)
    const rows = cost.instances.map((entry) => [
      shown(entry.name),
      formatRate(entry.meter.hourlyRate),
      `≈ ${formatDollars(meters.get(entry.instanceId)?.costSoFar ?? entry.meter.costSoFar)}`
    ])
    out.write(table(['NAME', 'RATE', 'COST SO FAR'], rows))
    return 0
  })
}
