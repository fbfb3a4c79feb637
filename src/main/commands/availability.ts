/**
 * The availability watch (availability/availability.ts): the watches and the shared checks,
 * starting and cancelling a watch, "Launch now" (the review step filled in, or what became of
 * the stock), and "Relaunch automatically when reclaimed" per instance.
 */
import type { Availability } from '../availability/availability'
import type { CommandGroup } from './dispatcher'

type AvailabilityCommand =
  'availability.get' | 'availability.watch' | 'availability.cancel' | 'availability.launchNow' | 'availability.setRelaunch'

export function availabilityCommands(availability: Availability): CommandGroup<AvailabilityCommand> {
  return {
    handlers: {
      'availability.get': async () => availability.snapshot(),
      'availability.watch': async ({ target, spec, auto, templateId }) => {
        const watch = availability.watch({ target, spec, auto, ...(templateId ? { origin: { kind: 'template', templateId } } : {}) })
        return { watchId: watch.watchId }
      },
      'availability.cancel': async ({ watchId }) => availability.cancel(watchId),
      'availability.launchNow': ({ watchId }) => availability.launchNow(watchId),
      'availability.setRelaunch': async ({ instanceId, rule }) => availability.setRelaunch(instanceId, rule)
    }
  }
}
