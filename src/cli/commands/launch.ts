/**
 * `cloud-tray launch --template NAME [--name N] [--wait] [--yes]`: an instance from a launch
 * template, through the app's one create path (`instances.create`: the create-once guard, so a
 * lost answer never makes a second paid machine). Shows what it launches and its price, and asks
 * unless --yes; --wait returns once it is Running, and the exit code says how it ended (0
 * Running, 8 failed, stopped or stuck; 130 Ctrl-C, the instance left starting).
 *
 * Launch templates are issue #26's. This command reads them through a seam, `templates.list`,
 * which the app's contract will name when they exist; each entry as TemplateSeam below. Until
 * then the app answers that it does not know the command, and this says so.
 */
import type { Instance } from '../../shared/api'
import { priceOf } from '../../shared/catalog'
import type { InstancesSnapshot } from '../../shared/contract'
import type { CreateInstanceRequest } from '../../shared/create-request'
import { formatRate } from '../../shared/cost-words'
import { statusGroup, knownStatus } from '../../shared/instance-rules'
import { hoursPerPeriod } from '../../shared/money'
import { statusWords } from '../../shared/status-words'
import type { AppClient } from '../app-client'
import { call, requireSignedIn, withApp, type CliContext } from '../app'
import { confirm } from '../ask'
import { CliError, EXIT, cliErrorOf } from '../exit-codes'
import { shown } from '../output'

/** A launch template as the command line expects `templates.list` to answer it (the seam with #26). */
export interface TemplateSeam {
  templateId: string
  name: string
  /** The create request the template makes today (region chosen, name as saved). */
  request: CreateInstanceRequest
}

export interface LaunchOptions {
  template: string
  name?: string
  wait?: boolean
  yes?: boolean
}

export const NO_TEMPLATES_YET =
  'This Cloud Tray has no launch templates yet (they arrive with issue #26: "Save as template" in the create form). Nothing was launched.'

async function templates(app: AppClient): Promise<TemplateSeam[]> {
  const answer = await app.invokeUnlisted('templates.list')
  if (!answer.ok) {
    if (answer.error.kind === 'bad-input' && /^Unknown command/.test(answer.error.message)) throw new CliError(NO_TEMPLATES_YET)
    throw cliErrorOf(answer.error)
  }
  if (!Array.isArray(answer.value))
    throw new CliError('The app answered its templates in a shape this command line does not know; update it with the app.')
  return answer.value as TemplateSeam[]
}

export function pickTemplate(all: readonly TemplateSeam[], query: string): TemplateSeam {
  const exact = all.filter((template) => template.name === query || template.templateId === query)
  const matches = exact.length > 0 ? exact : all.filter((template) => template.name.startsWith(query))
  if (matches.length === 1) return matches[0]!
  if (matches.length === 0) {
    const known = all.map((template) => `“${shown(template.name)}”`).join(', ')
    throw new CliError(
      `No launch template is named “${shown(query)}”.${known ? ` There are: ${known}.` : ' There are none yet.'}`,
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
    const template = pickTemplate(await templates(app), options.template)
    const request: CreateInstanceRequest = { ...template.request, ...(options.name ? { name: options.name } : {}) }
    const catalog = await call(app, 'catalog.get')
    const price = priceOf(catalog.catalog, request.instanceTypeId, request.billing.chargeMode, request.region)
    const hours = hoursPerPeriod(request.billing.chargeMode)
    const priceWords =
      price === undefined
        ? 'price unknown (the catalog does not list it)'
        : hours === 1
          ? formatRate(price)
          : `$${price.toFixed(2)} per ${shown(request.billing.chargeMode.replace(/^per/, '').toLowerCase())} × ${request.billing.duration}`
    const offer = catalog.catalog?.offers.find((each) => each.instanceTypeId === request.instanceTypeId && each.regionId === request.region)
    const gpus = offer && offer.gpuName ? ` (${offer.gpuNum ?? '?'} × ${shown(offer.gpuName)})` : ''
    const where = `${shown(request.instanceTypeId)}${gpus} in ${shown(offer?.regionName ?? request.region)}`
    if (offer?.stock === 'out-of-stock') throw new CliError(`${where} is out of stock now; nothing was launched.`, EXIT.refused)
    const question = `Launch «${shown(request.name)}» from “${shown(template.name)}”: ${where}, ${priceWords}${request.isSpotInstance ? ', spot (can be reclaimed)' : ''}? It bills from now until you stop it.`
    if (!(await confirm(context.io, question, options.yes))) {
      context.io.err.write('Nothing was launched.\n')
      return EXIT.failure
    }
    if (options.wait) app.subscribe('instances')
    const { instanceId } = await call(app, 'instances.create', { request })
    context.io.out.write(`${instanceId}\n`)
    if (!options.wait) {
      if (context.io.err.isTTY) context.io.err.write(`«${shown(request.name)}» is starting; \`cloud-tray watch\` follows it.\n`)
      return EXIT.ok
    }
    return waitUntilRunning(app, context, instanceId, request.name)
  })
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
