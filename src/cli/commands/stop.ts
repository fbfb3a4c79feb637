/** `cloud-tray stop NAME|ID [--yes]` and `cloud-tray terminate NAME|ID [--yes]`: each asks first, as the window does. */
import { formatRate } from '../../shared/cost-words'
import { hourlyRate } from '../../shared/money'
import { call, instanceSnapshot, requireSignedIn, withApp, type CliContext } from '../app'
import { confirm, confirmByName } from '../ask'
import { EXIT } from '../exit-codes'
import { resolveInstance } from '../instance-names'
import { shown } from '../output'

export async function stopCommand(
  context: CliContext,
  name: string,
  options: { yes?: boolean },
  action: 'stop' | 'terminate'
): Promise<number> {
  return withApp(context, async (app) => {
    await requireSignedIn(app)
    const instance = resolveInstance((await instanceSnapshot(app)).instances, name)
    const label = `«${shown(instance.instanceSpecInfo.name)}»`
    const rate = hourlyRate(instance.instanceSpecInfo.instanceBillingInfo)
    const id = instance.instanceMetadata.instanceId
    const confirmed =
      action === 'stop'
        ? await confirm(
            context.io,
            `Stop ${label}${rate > 0 ? ` (${formatRate(rate)})` : ''}? Programs running on it end, and so does its billing. ` +
              'The cloud offers no call to start an instance again: to continue later you create a new one. Mounted remote storage is kept.',
            options.yes
          )
        : // As in the window: deleting for good takes the name typed out.
          await confirmByName(
            context.io,
            `Delete ${label} for good? The instance and its disks are released and cannot be brought back; mounted remote storage is kept.`,
            instance.instanceSpecInfo.name,
            options.yes
          )
    if (!confirmed) {
      context.io.err.write(`Nothing was ${action === 'stop' ? 'stopped' : 'deleted'}.\n`)
      return EXIT.failure
    }
    const input = { instanceId: id }
    await (action === 'stop' ? call(app, 'instances.stop', input) : call(app, 'instances.terminate', input))
    context.io.out.write(action === 'stop' ? `${label} is stopping.\n` : `${label} is being deleted.\n`)
    return EXIT.ok
  })
}
