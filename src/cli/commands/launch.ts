/**
 * `cloud-tray launch --template NAME [--name N] [--wait] [--yes]`: an instance from one of the
 * profile's launch templates (#26, src/main/templates), through the app's door: the template is
 * picked from `templates.list`, shown with today's region, price and stock as the window's review
 * step fills it (`templates.review`), asked unless --yes, and launched by `templates.launch`, which
 * sends it through the Create button's own create-once path (a lost answer never makes a second
 * paid machine). --wait returns once it is Running, and the exit code says how it ended (0
 * Running, 8 failed, stopped or stuck; 130 Ctrl-C, the instance left starting).
 */
import type { Instance } from '../../shared/api'
import { priceOf } from '../../shared/catalog'
import type { InstancesSnapshot } from '../../shared/contract'
import type { LaunchTemplate } from '../../shared/contract-launch'
import { formatRate } from '../../shared/cost-words'
import { statusGroup, knownStatus } from '../../shared/instance-rules'
import { hoursPerPeriod } from '../../shared/money'
import { statusWords } from '../../shared/status-words'
import type { AppClient } from '../app-client'
import { call, requireSignedIn, withApp, type CliContext } from '../app'
import { confirm } from '../ask'
import { CliError, EXIT } from '../exit-codes'
import { shown } from '../output'

export interface LaunchOptions {
  template: string
  name?: string
  wait?: boolean
  yes?: boolean
}

/** What a template is picked by: its id, its whole name (any case), or the start of one name. */
export type TemplateChoice = Pick<LaunchTemplate, 'templateId' | 'name'>

export function pickTemplate<T extends TemplateChoice>(all: readonly T[], query: string): T {
  const wanted = query.trim().toLowerCase()
  const exact = all.filter((template) => template.templateId === query || template.name.toLowerCase() === wanted)
  const matches = exact.length > 0 ? exact : all.filter((template) => template.name.toLowerCase().startsWith(wanted))
  if (matches.length === 1) return matches[0]!
  if (matches.length === 0) {
    const known = all.map((template) => `“${shown(template.name)}”`).join(', ')
    throw new CliError(
      `No launch template is named “${shown(query)}”.${known ? ` There are: ${known}.` : ' This profile has none yet: in Cloud Tray, “Save as template…” on the create form’s review step makes one.'}`,
      EXIT.notFound
    )
  }
  throw new CliError(
    `“${shown(query)}” matches ${matches.length} templates: ${matches.map((t) => `“${shown(t.name)}”`).join(', ')}; give more of the name.`,
    EXIT.ambiguous
  )
}

export async function launchCommand(context: CliContext, options: LaunchOptions): Promise<number> {
  return withApp(context, async (app) => {
    await requireSignedIn(app)
    const template = pickTemplate(await call(app, 'templates.list'), options.template)
    // The window's review step: the first of the template's regions with stock today, else its first.
    const review = await call(app, 'templates.review', { templateId: template.templateId })
    const request = { ...review.spec.request, ...(options.name ? { name: options.name } : {}) }
    const { catalog } = await call(app, 'catalog.get')
    const offer = catalog?.offers.find((each) => each.instanceTypeId === request.instanceTypeId && each.regionId === request.region)
    const where = placeWords(request.instanceTypeId, request.region, offer)
    if (!offer || offer.stock === 'out-of-stock')
      throw new CliError(
        `${where} is out of stock today${review.spec.regions.length > 1 ? ' in every region the template accepts' : ''}; nothing was launched. Cloud Tray can watch for it (the template’s Launch in the window).`,
        EXIT.refused
      )
    const price = priceOf(catalog, request.instanceTypeId, request.billing.chargeMode, request.region)
    const hours = hoursPerPeriod(request.billing.chargeMode)
    const priceWords =
      price === undefined
        ? 'price unknown (the catalog does not list it)'
        : hours === 1
          ? formatRate(price)
          : `$${price.toFixed(2)} per ${shown(request.billing.chargeMode.replace(/^per/, '').toLowerCase())} × ${request.billing.duration}`
    const question = `Launch «${shown(request.name)}» from “${shown(template.name)}”: ${where}, ${priceWords}${request.isSpotInstance ? ', spot (can be reclaimed)' : ''}? It bills from now until you stop it.`
    if (!(await confirm(context.io, question, options.yes))) {
      context.io.err.write('Nothing was launched.\n')
      return EXIT.failure
    }
    if (options.wait) app.subscribe('instances')
    const launched = await call(app, 'templates.launch', {
      template: template.templateId,
      ...(options.name ? { name: options.name } : {})
    })
    context.io.out.write(`${launched.instanceId}\n`)
    if (launched.regionId !== request.region) {
      // Stock moved between the question and the launch: the app took the template's next region.
      const moved = catalog?.offers.find((each) => each.instanceTypeId === request.instanceTypeId && each.regionId === launched.regionId)
      const rate = launched.hourlyRate === undefined ? '' : ` at ${formatRate(launched.hourlyRate)}`
      context.io.err.write(`The stock moved meanwhile: launched in ${shown(moved?.regionName ?? launched.regionId)}${rate}.\n`)
    }
    if (!options.wait) {
      if (context.io.err.isTTY) context.io.err.write(`«${shown(request.name)}» is starting; \`cloud-tray watch\` follows it.\n`)
      return EXIT.ok
    }
    return waitUntilRunning(app, context, launched.instanceId, request.name)
  })
}

function placeWords(
  instanceTypeId: string,
  regionId: string,
  offer: { gpuName?: string | null; gpuNum?: number | null; regionName?: string | null } | undefined
): string {
  const gpus = offer && offer.gpuName ? ` (${offer.gpuNum ?? '?'} × ${shown(offer.gpuName)})` : ''
  return `${shown(instanceTypeId)}${gpus} in ${shown(offer?.regionName ?? regionId)}`
}
/** How a start ended: Running (0), or failed, stopped, gone or stuck (8). */
async function waitUntilRunning(app: AppClient, context: CliContext, instanceId: string, name: string): Promise<number> {
  const { err } = context.io
  let lastStatus: string | undefined
  return new Promise<number>((resolve) => {
    const look = (snapshot: InstancesSnapshot): void => {
      const instance: Instance | undefined = snapshot.instances.find((each) => each.instanceMetadata.instanceId === instanceId)
      if (!instance) return
      const status = instance.instanceRuntimeInfo.status
      if (status !== lastStatus && err.isTTY) err.write(`«${shown(name)}»: ${statusWords(status)}\n`)
      lastStatus = status
      if (knownStatus(status) === 'Running') return finish(EXIT.ok)
      const said = instance.instanceRuntimeInfo.diagnosisMessage || instance.instanceRuntimeInfo.message
      if (statusGroup(status) === 'failed')
        return finish(EXIT.didNotStart, `«${shown(name)}» failed to start: ${shown(said || 'the cloud gave no reason.')}`)
      if (statusGroup(status) === 'ended') return finish(EXIT.didNotStart, `«${shown(name)}» is ${statusWords(status)}; it did not start.`)
      const stuck = snapshot.stuck?.find((each) => each.instanceId === instanceId)
      if (stuck) {
        return finish(
          EXIT.didNotStart,
          `«${shown(name)}» is stuck starting (${stuck.reason === 'back-off' ? shown(stuck.diagnosisMessage ?? 'the cloud reports a back-off') : `“${statusWords(stuck.status)}” without progress`}). It keeps billing while it waits: delete it with \`cloud-tray terminate ${instanceId}\`.`
        )
      }
    }
    const offInstances = app.on('instances', look)
    const onSigint = (): void => finish(EXIT.interrupted, `Stopped waiting; «${shown(name)}» keeps starting (and billing).`)
    process.once('SIGINT', onSigint)
    void app.closed.then(() => finish(EXIT.notRunning, 'Cloud Tray quit while the instance was starting.'))
    let finished = false
    function finish(code: number, message?: string): void {
      if (finished) return
      finished = true
      offInstances()
      process.off('SIGINT', onSigint)
      if (message) err.write(`${message}\n`)
      resolve(code)
    }
    void call(app, 'instances.get').then(look, () => undefined)
  })
}
