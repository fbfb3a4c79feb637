/**
 * Suggestions for the create form. The API has no catalogue endpoint, so the app offers what it
 * has seen: the types and regions of the user's instances, and the images, types and regions of
 * their recent launches.
 */
import type { Instance } from '../../shared/api'
import type { Suggestion, Suggestions } from '../../shared/contract'

export interface RecentLaunch {
  imageId: string
  instanceTypeId: string
  region: string
  at: number
}

export function suggestionsFrom(instances: readonly Instance[], recent: readonly RecentLaunch[]): Suggestions {
  const images = new Suggest()
  const types = new Suggest()
  const regions = new Suggest()
  const prices = new Map<string, Suggestions['prices'][number]>()
  for (const launch of [...recent].sort((a, b) => b.at - a.at)) {
    images.add(launch.imageId, launch.imageId, 'recent')
    types.add(launch.instanceTypeId, launch.instanceTypeId, 'recent')
    regions.add(launch.region, launch.region, 'recent')
  }
  for (const instance of instances) {
    const spec = instance.instanceSpecInfo
    // An instance names its image (imageInfo.name) but not the image's id, which create needs:
    // image suggestions therefore come from recent launches only.
    const type = spec.instanceTypeInfo
    types.add(type.instanceId, type.instanceTypeName || type.instanceId, 'instances')
    const region = spec.regionInfo
    regions.add(region.regionId || region.value, region.name || region.regionId, 'instances')
    const billing = spec.instanceBillingInfo
    prices.set(`${type.instanceId}\u0000${billing.chargeMode}`, {
      instanceTypeId: type.instanceId,
      chargeMode: billing.chargeMode,
      price: billing.price,
      unit: billing.unit
    })
  }
  return { images: images.list, instanceTypes: types.list, regions: regions.list, prices: [...prices.values()] }
}

class Suggest {
  readonly list: Suggestion[] = []
  private readonly seen = new Map<string, Suggestion>()

  add(id: string, label: string, source: Suggestion['source']): void {
    if (!id) return
    const known = this.seen.get(id)
    if (known) {
      // A label from a real instance is better than a bare id from a launch.
      if (source === 'instances' && known.label === known.id) known.label = label || id
      return
    }
    const suggestion = { id, label: label || id, source }
    this.seen.set(id, suggestion)
    this.list.push(suggestion)
  }
}

export const MAX_RECENT_LAUNCHES = 10

export function addRecentLaunch(recent: readonly RecentLaunch[], launch: RecentLaunch): RecentLaunch[] {
  const key = (l: RecentLaunch): string => `${l.imageId}\u0000${l.instanceTypeId}\u0000${l.region}`
  return [launch, ...recent.filter((l) => key(l) !== key(launch))].slice(0, MAX_RECENT_LAUNCHES)
}
