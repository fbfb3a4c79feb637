/**
 * What an instance allows right now, decided once for the whole app: main's commands, the tray
 * menu, the SSH target, the notebook window and the renderer's buttons all ask here, so the
 * window never offers what main refuses. Pure functions of the instance as the API lists it;
 * the words that explain a "no" belong to each caller (the renderer's tooltips, main's errors).
 *
 * Statuses: the spec's ten, plus `Stopping` (the real service reports it though the spec omits
 * it). Like the provider's own client, values are compared without regard to case, and a value
 * the app does not know is `unknown`, never an error.
 */
import type { Instance, NodePort } from './api'
import { uniqueBy, type Unique } from './unique-by'

// ---------------------------------------------------------------- statuses

export const INSTANCE_STATUSES = [
  'Running',
  'Stopped',
  'Starting',
  'StartingFailed',
  'Initializing',
  'InitializationFailed',
  'Archived',
  'Released',
  'PullingImage',
  'Restarting',
  'Stopping'
] as const
export type KnownInstanceStatus = (typeof INSTANCE_STATUSES)[number]

/**
 * The status class: `usable` (Running), `transitioning` (on its way up or down), `failed` (did
 * not start; may still bill), `ended` (Stopped, Archived, Released), `unknown` (a value the app
 * does not know yet).
 */
export type StatusGroup = 'usable' | 'transitioning' | 'failed' | 'ended' | 'unknown'

const STATUS_GROUPS: Record<KnownInstanceStatus, StatusGroup> = {
  Running: 'usable',
  Initializing: 'transitioning',
  PullingImage: 'transitioning',
  Starting: 'transitioning',
  Restarting: 'transitioning',
  Stopping: 'transitioning',
  StartingFailed: 'failed',
  InitializationFailed: 'failed',
  Stopped: 'ended',
  Archived: 'ended',
  Released: 'ended'
}

const BY_LOWER_CASE = new Map<string, KnownInstanceStatus>(INSTANCE_STATUSES.map((status) => [status.toLowerCase(), status]))

/** The status as the spec spells it (`running` → `Running`); undefined for a status the app does not know. */
export function knownStatus(status: string): KnownInstanceStatus | undefined {
  return BY_LOWER_CASE.get(status.toLowerCase())
}

export function statusGroup(status: string): StatusGroup {
  const known = knownStatus(status)
  return known ? STATUS_GROUPS[known] : 'unknown'
}

const statusOf = (instance: Instance): string => instance.instanceRuntimeInfo.status

/** Only a Running instance has a notebook, an SSH server and ports that answer. */
export function isRunning(instance: Instance): boolean {
  return knownStatus(statusOf(instance)) === 'Running'
}

export function isStopping(status: string): boolean {
  return knownStatus(status) === 'Stopping'
}

/**
 * Whether an instance in this status is costing money: everything but Stopped, Archived and
 * Released (a start that failed may still hold its machine; the service bills until stop or
 * terminate, hpcai-api-facts.md 2.5), including a status the app does not know. The cost guard's
 * meter and the emulator's billing both ask here.
 */
export function isBilledStatus(status: string): boolean {
  return statusGroup(status) !== 'ended'
}

/** Whether the instance is costing money (isBilledStatus). */
export function isBilled(instance: Instance): boolean {
  return isBilledStatus(statusOf(instance))
}

/** On its way up: every transitioning status but Stopping. */
export function isBooting(status: string): boolean {
  return statusGroup(status) === 'transitioning' && !isStopping(status)
}

/**
 * A spot instance, which the provider may reclaim (stop) whenever it needs the capacity: the
 * listing's `isSpotInstance`, else its billing type `Spot`. False when the listing does not say.
 */
export function isSpot(instance: Instance): boolean {
  const spec = instance.instanceSpecInfo
  return spec.isSpotInstance ?? spec.instanceBillingInfo.type.toLowerCase() === 'spot'
}

// ---------------------------------------------------------------- a stuck start

/** Why a start counts as stuck: the service reports a back-off, or nothing moved for too long. */
export type StuckReason = 'back-off' | 'no-progress'

/** The user's default patience with a start that does not move (the real client's own budget is 15 min). */
export const DEFAULT_STUCK_AFTER_MS = 15 * 60_000

/**
 * Whether a start is stuck. The real service leaves an image it cannot pull in `Starting` or
 * `PullingImage` with diagnosisReason `BackOff` for good, never failing it (hpcai-api-facts.md
 * 3.2); Kubernetes' other back-offs (`ImagePullBackOff`, `CrashLoopBackOff`) read the same. And
 * any start whose status has not changed since `sinceMs` for `thresholdMs` or longer.
 */
export function stuckStart(instance: Instance, sinceMs: number, nowMs: number, thresholdMs: number): StuckReason | undefined {
  const runtime = instance.instanceRuntimeInfo
  if (!isBooting(runtime.status)) return undefined
  const pulling = ['Starting', 'PullingImage'].includes(knownStatus(runtime.status) ?? '')
  if (pulling && /backoff/i.test(runtime.diagnosisReason ?? '')) return 'back-off'
  return nowMs - sinceMs >= thresholdMs ? 'no-progress' : undefined
}

// ---------------------------------------------------------------- actions

/**
 * Stop is offered for everything that has not ended and is not already stopping: running, on
 * its way, failed (to end its billing), and a status the app does not know, since the API
 * accepts a stop of anything running, booting or failed and answers for itself otherwise.
 */
export function canStop(instance: Instance): boolean {
  const status = statusOf(instance)
  return !isStopping(status) && statusGroup(status) !== 'ended'
}

/** Terminating a Released instance has nothing left to release. */
export function canTerminate(instance: Instance): boolean {
  return knownStatus(statusOf(instance)) !== 'Released'
}

export function canOpenNotebook(instance: Instance): boolean {
  return notebookLocation(instance).ok
}

export function canOpenTerminal(instance: Instance): boolean {
  return isRunning(instance) && sshEndpoint(instance).ok
}

/**
 * Whether an instance's SSH connections (terminals, tunnels, files) should end: it is stopping or
 * stopped, failed, or gone from the list. A restart on the way back (Starting, Restarting) is not
 * a stop, nor a status the app does not know: connections keep reconnecting through it.
 */
export function sshEnded(instance: Instance | undefined): boolean {
  if (!instance) return true
  const status = statusOf(instance)
  const group = statusGroup(status)
  return isStopping(status) || group === 'ended' || group === 'failed'
}

/**
 * The Ports panel (ports the cloud published, and ports forwarded over SSH): a Running instance
 * with a published port besides SSH, or an SSH port to forward others over.
 */
export function canOpenPorts(instance: Instance): boolean {
  return isRunning(instance) && (forwardedPorts(instance).length > 0 || sshEntry(instance) !== undefined)
}

// ---------------------------------------------------------------- SSH and forwarded ports

export const SSH_PORT = 22

export function sshEntry(instance: Instance): NodePort | undefined {
  return instance.instanceSpecInfo.nodePorts.find((entry) => entry.port === SSH_PORT)
}

/**
 * The port entries as listed, each inside port once (views key rows by it): a port the service
 * lists twice is shown with its first entry, the one `sshEntry` finds too.
 */
export function listedPorts(instance: Instance): Unique<NodePort> {
  return uniqueBy(instance.instanceSpecInfo.nodePorts, (entry) => entry.port)
}

/** Every node port but SSH's, each once: what the Ports panel and the tray list. */
export function forwardedPorts(instance: Instance): NodePort[] {
  return listedPorts(instance).items.filter((entry) => entry.port !== SSH_PORT)
}

/**
 * Where a node port answers: the entry's address, else the region's sshAddress (the provider's
 * console prints that one), without URL brackets. Undefined when neither is given.
 */
export function entryHost(instance: Instance, entry: NodePort): string | undefined {
  const host = entry.address?.trim() || instance.instanceSpecInfo.regionInfo.sshAddress.trim()
  const bare = /^\[(.*)\]$/.exec(host)?.[1] ?? host
  return bare === '' ? undefined : bare
}

/** A host as it is written in a URL or after `user@`: an IPv6 literal in brackets, exactly once. */
export function hostForUrl(host: string): string {
  const bare = /^\[(.*)\]$/.exec(host)?.[1] ?? host
  return bare.includes(':') ? `[${bare}]` : bare
}

/** A node port number the outside can reach (the API may list 0 before the instance runs). */
function isReachablePort(nodePort: number): boolean {
  return Number.isInteger(nodePort) && nodePort >= 1 && nodePort <= 65_535
}

export type SshEndpoint = { ok: true; host: string; port: number; username: string } | { ok: false; reason: 'no-ssh-port' | 'no-address' }

/** The spec's SSH rule: the port-22 entry's address (or the region's) on its nodePort, as `instanceUsername`. */
export function sshEndpoint(instance: Instance): SshEndpoint {
  const entry = sshEntry(instance)
  if (!entry) return { ok: false, reason: 'no-ssh-port' }
  const host = entryHost(instance, entry)
  if (host === undefined || !isReachablePort(entry.nodePort)) return { ok: false, reason: 'no-address' }
  return { ok: true, host, port: entry.nodePort, username: instance.instanceMetadata.instanceUsername }
}

/**
 * The spec's rule for a forwarded port: `http://<address>:<nodePort>`. Undefined when the API
 * gave no address or port yet (see linkForHostPort for what else gives no link).
 */
export function portUrl(instance: Instance, entry: NodePort): string | undefined {
  return linkForHostPort(entryHost(instance, entry), entry.nodePort)
}

/**
 * The browser address of a host and port, both server text: `http://HOST:PORT`. An IPv6 literal
 * is bracketed exactly once whether or not the server already bracketed it (`::1` and `[::1]`
 * both give `http://[::1]:N`), and anything that is not a plain host name, IPv4 or IPv6 literal
 * gives no address at all rather than a URL with a path, credentials or another host smuggled in.
 */
export function linkForHostPort(host: string | undefined, port: number): string | undefined {
  if (!isReachablePort(port)) return undefined
  const bare = (host ?? '').trim().replace(/^\[(.*)\]$/, '$1')
  if (bare === '') return undefined
  const ipv6 = bare.includes(':')
  if (ipv6 ? !/^[0-9A-Fa-f:.]+$/.test(bare) : !/^[A-Za-z0-9._-]+$/.test(bare)) return undefined
  let url: URL
  try {
    url = new URL(`http://${hostForUrl(bare)}:${port}/`)
  } catch {
    return undefined
  }
  // URL drops the default port 80; keep it visible so the address reads as the node port it is.
  return `http://${url.hostname}:${port}`
}

/** The URL of the forwarded port with this nodePort (a tray item's id names it). */
export function portUrlOf(instance: Instance, nodePort: number): string | undefined {
  const entry = forwardedPorts(instance).find((candidate) => candidate.nodePort === nodePort)
  return entry ? portUrl(instance, entry) : undefined
}

// ---------------------------------------------------------------- notebook

export type NotebookLocation = { ok: true; url: string; origin: string } | { ok: false; reason: 'not-running' | 'bad-address' }

/** The spec's notebook rule: `https://` + regionInfo.domain + subUrl, while the instance is Running. */
export function notebookLocation(instance: Instance): NotebookLocation {
  if (!isRunning(instance)) return { ok: false, reason: 'not-running' }
  const domain = instance.instanceSpecInfo.regionInfo.domain.trim()
  const subUrl = instance.instanceRuntimeInfo.subUrl.trim()
  const badAddress = { ok: false as const, reason: 'bad-address' as const }
  // The domain must be a bare host[:port]: anything that would change the URL's meaning (a path,
  // credentials, a scheme) is refused rather than guessed at. No path: no notebook page yet.
  if (domain === '' || subUrl === '' || /[/\\@?#\s]/.test(domain)) return badAddress
  let url: URL
  try {
    url = new URL(`https://${domain}${subUrl.startsWith('/') ? subUrl : `/${subUrl}`}`)
  } catch {
    return badAddress
  }
  // The path must not move the URL to another host (it cannot after the checks above; kept as the invariant).
  if (url.host !== new URL(`https://${domain}`).host) return badAddress
  return { ok: true, url: url.href, origin: url.origin }
}
