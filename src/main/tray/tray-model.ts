/**
 * The tray menu as data: a pure function of the session, the snapshot and the settings. The
 * adapter renders it; `tray.activate` runs an item by id. Every action is a menu item because
 * Linux AppIndicator ignores clicks on the icon.
 */
import type { UpdateState } from '../../shared/contract-update'
import type { Instance } from '../../shared/api'
import { availableOf, extrasOf } from '../../shared/balance'
import {
  canOpenNotebook,
  canOpenTerminal,
  canStop,
  canTerminate,
  forwardedPorts,
  isRunning,
  isStopping,
  knownStatus,
  portUrl,
  statusGroup
} from '../../shared/instance-rules'
import type {
  BalanceSnapshot,
  InstancesSnapshot,
  SessionState,
  Settings,
  TrayIcon,
  TrayMenuItem,
  TrayModel,
  WatchHealth
} from '../../shared/contract'
import { formatDollars } from '../../shared/money'
import { statusWords } from '../../shared/status-words'
import type { CostSnapshot, GuardInstance } from '../../shared/contract-cost'
import { uniqueBy } from '../../shared/unique-by'
import { burnLine, burnTitle, burnTooltip, countdownItems, instanceCostLines } from './tray-cost'
import { TUNNEL_PRESETS, type TunnelInfo } from '../../shared/contract-tunnels'
import type { LaunchTemplate, StockWatch } from '../../shared/contract-launch'
import { templateItems, watchItems } from './tray-launch'

export interface TrayContext {
  health?: WatchHealth
  profileName?: string
  /** The balance as last read (billing/balance-model.ts). */
  balance?: BalanceSnapshot
  /** The cost guard's snapshot (cost/cost-guard.ts). */
  cost?: CostSnapshot
  /** Port tunnels (src/main/ssh/tunnels/tunnel-manager.ts): each instance's are listed in its submenu. */
  tunnels?: readonly Pick<TunnelInfo, 'tunnelId' | 'instanceId' | 'remotePort' | 'label' | 'localAddress' | 'state'>[]
  /** Parts of main that are not working (supervisor.ts): a line each, in a few words. */
  problems?: readonly { partId: string; short: string }[]
  /** The updater (update/update-service.ts): a downloaded update offers a restart. */
  update?: Pick<UpdateState, 'status' | 'version' | 'waitingFor'>
  /** Availability watches (src/main/availability): what each waits for, cancellable. */
  watches?: readonly StockWatch[]
  /** Launch templates of the session's profile (src/main/templates). */
  templates?: readonly Pick<LaunchTemplate, 'templateId' | 'name'>[]
}

export type TrayAction =
  | { kind: 'open-window' }
  | { kind: 'more-instances' }
  | { kind: 'new-instance' }
  | { kind: 'new-volume' }
  | { kind: 'refresh' }
  | { kind: 'sign-in' }
  | { kind: 'sign-out' }
  | { kind: 'quit' }
  | { kind: 'update-restart' }
  | { kind: 'notebook'; instanceId: string }
  | { kind: 'terminal'; instanceId: string }
  | { kind: 'run-job'; instanceId: string }
  | { kind: 'copy-ssh'; instanceId: string }
  | { kind: 'open-port'; instanceId: string; nodePort: number }
  | { kind: 'stop'; instanceId: string }
  | { kind: 'keep-running'; instanceId: string }
  | { kind: 'terminate'; instanceId: string }
  | { kind: 'forward'; instanceId: string; remotePort: number }
  | { kind: 'forward-other'; instanceId: string }
  | { kind: 'tunnel-open' | 'tunnel-copy' | 'tunnel-stop'; instanceId: string; tunnelId: string }
  | { kind: 'launch-again'; instanceId: string }
  | { kind: 'watch-launch' | 'watch-cancel'; watchId: string }
  | { kind: 'template-launch'; templateId: string }

const GLOBAL = [
  'open-window',
  'more-instances',
  'new-instance',
  'new-volume',
  'refresh',
  'sign-in',
  'sign-out',
  'quit',
  'update-restart'
] as const

/** Item id → action; undefined for ids the model never produces. */
export function parseTrayItemId(itemId: string): TrayAction | undefined {
  if ((GLOBAL as readonly string[]).includes(itemId)) return { kind: itemId as (typeof GLOBAL)[number] }
  const watch = /^watch:([A-Za-z0-9-]+):(launch|cancel)$/.exec(itemId)
  if (watch) return { kind: `watch-${watch[2] as 'launch' | 'cancel'}`, watchId: watch[1]! }
  const template = /^template:([A-Za-z0-9-]+):launch$/.exec(itemId)
  if (template) return { kind: 'template-launch', templateId: template[1]! }
  const tunnel = /^instance:(.+):(forward:(\d{1,5})|forward-other|tunnel:([A-Za-z0-9-]+):(open|copy|stop))$/.exec(itemId)
  if (tunnel) {
    const instanceId = tunnel[1]!
    if (tunnel[3] !== undefined) return { kind: 'forward', instanceId, remotePort: Number(tunnel[3]) }
    if (tunnel[2] === 'forward-other') return { kind: 'forward-other', instanceId }
    return { kind: `tunnel-${tunnel[5] as 'open' | 'copy' | 'stop'}`, instanceId, tunnelId: tunnel[4]! }
  }
  const match = /^instance:(.+):(notebook|terminal|run-job|copy-ssh|stop|terminate|keep-running|launch-again|port:(\d{1,5}))$/.exec(itemId)
  if (!match) return undefined
  const instanceId = match[1]!
  if (match[3] !== undefined) return { kind: 'open-port', instanceId, nodePort: Number(match[3]) }
  return {
    kind: match[2] as 'notebook' | 'terminal' | 'run-job' | 'copy-ssh' | 'stop' | 'terminate' | 'keep-running' | 'launch-again',
    instanceId
  }
}

export function trayModel(session: SessionState, snapshot: InstancesSnapshot, settings: Settings, context: TrayContext = {}): TrayModel {
  const signedIn = session.status === 'signed-in'
  // Submenu ids carry the instance id: an instance listed twice gets one submenu (the first).
  const instances = session.status === 'signed-out' ? [] : uniqueBy(snapshot.instances, (i) => i.instanceMetadata.instanceId).items
  const items: TrayMenuItem[] = []
  const cost = session.status === 'signed-out' ? undefined : context.cost
  const guarded = new Map((cost?.instances ?? []).map((entry) => [entry.instanceId, entry]))

  // What everything running costs comes first: it is what this menu is for.
  const burn = burnLine(cost)
  if (burn) items.push(label('burn', burn))
  items.push(label('status', statusLine(session, context)))
  const money = balanceLine(session, settings, context.balance)
  if (money) items.push(label('balance', money))
  if (context.health?.state === 'failing') items.push(label('health', 'Cannot reach the cloud — retrying'))
  // A handful at most: the window's banners say the rest.
  for (const problem of (context.problems ?? []).slice(0, MAX_TRAY_PROBLEMS))
    items.push(label(`problem:${problem.partId}`, `⚠ ${problem.short}`))
  for (const countdown of countdownItems(cost, signedIn)) items.push(countdown)
  items.push(separator('sep-status'))

  if (session.status !== 'signed-out') {
    if (instances.length === 0) items.push(label('no-instances', snapshot.fetchedAt === null ? 'Loading instances…' : 'No instances'))
    const shown = instancesForMenu(instances)
    const stuck = new Set((snapshot.stuck ?? []).map((start) => start.instanceId))
    const notebookPassword = session.method === 'api-key' && session.notebookSignInUntil === undefined
    for (const instance of shown)
      items.push(
        instanceSubmenu(
          instance,
          signedIn,
          stuck.has(instance.instanceMetadata.instanceId),
          notebookPassword,
          context.tunnels,
          guarded.get(instance.instanceMetadata.instanceId),
          cost?.at ?? 0
        )
      )
    if (shown.length < instances.length) {
      items.push(item('more-instances', `${instances.length - shown.length} more in Cloud Tray…`, true))
    }
    items.push(separator('sep-instances'))
    const watches = watchItems(context.watches ?? [], signedIn)
    if (watches.length > 0) for (const line of [...watches, separator('sep-watches')]) items.push(line)
  }

  items.push(item('open-window', 'Open Cloud Tray', true))
  items.push(item('new-instance', 'New instance…', signedIn))
  if (session.status !== 'signed-out') for (const line of templateItems(context.templates ?? [], signedIn)) items.push(line)
  items.push(item('new-volume', 'New volume…', signedIn))
  items.push(item('refresh', 'Refresh now', signedIn))
  items.push(separator('sep-account'))
  if (session.status === 'signed-in') items.push(item('sign-out', 'Sign out', true))
  else items.push(item('sign-in', session.status === 'expired' ? 'Sign in again…' : 'Sign in…', true))
  const update = context.update
  if (update?.status === 'ready')
    items.push(
      item(
        'update-restart',
        update.waitingFor ? `Update ${update.version} waits for open sessions…` : `Restart to update (${update.version})`,
        true
      )
    )
  items.push(item('quit', 'Quit', true))

  const costTip = burnTooltip(cost)
  const title = burnTitle(cost, settings.costGuard.trayTitle)
  return {
    tooltip: costTip ? `${tooltip(session, instances)} · ${costTip}` : tooltip(session, instances),
    icon: icon(session, instances, context.health),
    items,
    ...(title ? { title } : {})
  }
}

/** Problem lines shown at most (supervisor.ts's unhealthy parts); the window lists every one. */
export const MAX_TRAY_PROBLEMS = 3

/** A menu is not a list view: beyond this many instances the rest are one "more" item. */
export const MAX_TRAY_INSTANCES = 15

const MENU_PRIORITY: Record<string, number> = { failed: 0, transitioning: 1, usable: 2, unknown: 3, ended: 4 }

/** The instances that get a submenu: those needing attention or changing first, then running, then the rest. */
export function instancesForMenu(instances: readonly Instance[]): Instance[] {
  if (instances.length <= MAX_TRAY_INSTANCES) return [...instances]
  return instances
    .map((instance, index) => ({ instance, index, rank: MENU_PRIORITY[statusGroup(instance.instanceRuntimeInfo.status)] ?? 3 }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .slice(0, MAX_TRAY_INSTANCES)
    .map(({ instance }) => instance)
}

/**
 * `notebookPassword`: an API-key session that has not given its password for notebook pages
 * yet; the item says so before the click.
 */
function instanceSubmenu(
  instance: Instance,
  signedIn: boolean,
  stuck: boolean,
  notebookPassword: boolean,
  tunnels: TrayContext['tunnels'],
  cost: GuardInstance | undefined,
  /** The cost snapshot's time: what "today" is for the plan line. */
  now: number
): TrayMenuItem {
  const id = instance.instanceMetadata.instanceId
  const status = instance.instanceRuntimeInfo.status
  const running = signedIn && isRunning(instance)
  const terminal = signedIn && canOpenTerminal(instance)
  // Item ids carry the node port: a port the server lists twice gets one item (the first).
  const ports = uniqueBy(forwardedPorts(instance), (p) => p.nodePort).items
  const submenu: TrayMenuItem[] = [
    ...instanceCostLines(cost, now),
    item(
      `instance:${id}:notebook`,
      notebookPassword ? 'Open notebook (asks for your password once)…' : 'Open notebook',
      signedIn && canOpenNotebook(instance)
    ),
    item(`instance:${id}:terminal`, 'Open terminal', terminal),
    item(`instance:${id}:run-job`, 'Run a job…', terminal),
    item(`instance:${id}:copy-ssh`, 'Copy SSH command', terminal)
  ]
  if (tunnels)
    for (const entry of tunnelItems(
      id,
      terminal,
      tunnels.filter((tunnel) => tunnel.instanceId === id)
    ))
      submenu.push(entry)
  if (ports.length > 0) {
    submenu.push(separator(`instance:${id}:sep-ports`))
    for (const port of ports) {
      const url = portUrl(instance, port)
      // The inside port first: it is the one the user chose ("8888 → http://host:30888").
      submenu.push(
        item(
          `instance:${id}:port:${port.nodePort}`,
          url ? `${port.port} → ${url}` : `${port.port} (no address yet)`,
          running && url !== undefined
        )
      )
    }
  }
  submenu.push(separator(`instance:${id}:sep-stop`))
  submenu.push(item(`instance:${id}:launch-again`, 'Launch again…', signedIn))
  submenu.push(item(`instance:${id}:stop`, 'Stop…', signedIn && canStop(instance)))
  submenu.push(item(`instance:${id}:terminate`, 'Delete for good…', signedIn && canTerminate(instance)))
  const shown = stuck ? 'stuck starting' : statusWords(status)
  return { id: `instance:${id}`, label: `${instance.instanceSpecInfo.name} — ${shown}`, enabled: true, type: 'submenu', submenu }
}

/**
 * "Balance: $95.20", "Balance low: $4.20" (below the user's threshold), with the vouchers and
 * credits spent before it when there are any, as the window's sidebar says; none until read.
 */
function balanceLine(session: SessionState, settings: Settings, snapshot: BalanceSnapshot | undefined): string | undefined {
  if (session.status !== 'signed-in' || !snapshot?.balance) return undefined
  const available = availableOf(snapshot.balance)
  const extras = extrasOf(snapshot.balance)
  const low = settings.lowBalanceThreshold !== null && available < settings.lowBalanceThreshold
  return `${low ? 'Balance low' : 'Balance'}: ${formatDollars(available)}${extras > 0 ? ` + ${formatDollars(extras)} vouchers and credits` : ''}`
}

/**
 * "Forward a port" with the presets (those already forwarded say so) and "Other port…" (the
 * window's dialog), then each tunnel of the instance with open, copy and stop.
 */
function tunnelItems(instanceId: string, reachable: boolean, tunnels: NonNullable<TrayContext['tunnels']>): TrayMenuItem[] {
  const forwarded = new Set(tunnels.map((tunnel) => tunnel.remotePort))
  const presets = TUNNEL_PRESETS.map((preset) =>
    item(
      `instance:${instanceId}:forward:${preset.port}`,
      forwarded.has(preset.port) ? `${preset.label} (${preset.port}) — forwarded` : `${preset.label} (${preset.port})`,
      reachable && !forwarded.has(preset.port)
    )
  )
  const items: TrayMenuItem[] = [
    separator(`instance:${instanceId}:sep-tunnels`),
    {
      id: `instance:${instanceId}:forward`,
      label: 'Forward a port',
      enabled: reachable,
      type: 'submenu',
      submenu: [
        ...presets,
        separator(`instance:${instanceId}:sep-forward`),
        item(`instance:${instanceId}:forward-other`, 'Other port…', reachable)
      ]
    }
  ]
  for (const tunnel of tunnels) {
    const prefix = `instance:${instanceId}:tunnel:${tunnel.tunnelId}`
    const name = tunnel.label ? `${tunnel.label} (${tunnel.remotePort})` : `port ${tunnel.remotePort}`
    const live = tunnel.state !== 'waiting' && tunnel.state !== 'ended'
    const where = tunnel.state === 'waiting' ? 'waiting for the instance' : tunnel.state === 'ended' ? 'ended' : tunnel.localAddress
    items.push({
      id: prefix,
      label: `${where} → ${name}`,
      enabled: true,
      type: 'submenu',
      submenu: [
        item(`${prefix}:open`, `Open http://${tunnel.localAddress}`, live),
        item(`${prefix}:copy`, `Copy ${tunnel.localAddress}`, live),
        item(`${prefix}:stop`, tunnel.state === 'ended' ? 'Remove' : 'Stop forwarding', true)
      ]
    })
  }
  return items
}

function statusLine(session: SessionState, context: TrayContext): string {
  const where = context.profileName ? ` · ${context.profileName}` : ''
  if (session.status === 'signed-in') return `Signed in as ${session.username ?? ''}${where}`
  if (session.status === 'expired') return `Session expired${where}`
  return `Signed out${where}`
}

const TOOLTIP_GROUPS: { label: string; test: (status: string) => boolean }[] = [
  { label: 'running', test: (s) => statusGroup(s) === 'usable' },
  { label: 'starting', test: (s) => statusGroup(s) === 'transitioning' && !isStopping(s) },
  { label: 'stopping', test: (s) => isStopping(s) },
  { label: 'failed', test: (s) => statusGroup(s) === 'failed' },
  { label: 'stopped', test: (s) => knownStatus(s) === 'Stopped' }
]

export function tooltip(session: SessionState, instances: readonly Instance[]): string {
  if (session.status === 'signed-out') return 'Cloud Tray — signed out'
  if (session.status === 'expired') return 'Cloud Tray — session expired, sign in again'
  const parts = TOOLTIP_GROUPS.map((g) => ({ g, n: instances.filter((i) => g.test(i.instanceRuntimeInfo.status)).length }))
    .filter(({ n }) => n > 0)
    .map(({ g, n }) => `${n} ${g.label}`)
  return parts.length > 0 ? parts.join(' · ') : 'Cloud Tray — no instances'
}

export function icon(session: SessionState, instances: readonly Instance[], health?: WatchHealth): TrayIcon {
  if (session.status === 'expired' || health?.state === 'failing') return 'attention'
  if (session.status === 'signed-out') return 'idle'
  const groups = instances.map((i) => statusGroup(i.instanceRuntimeInfo.status))
  if (groups.includes('failed')) return 'attention'
  if (groups.includes('transitioning')) return 'busy'
  if (groups.includes('usable')) return 'running'
  return 'idle'
}

function item(id: string, text: string, enabled: boolean): TrayMenuItem {
  return { id, label: text, enabled, type: 'normal' }
}

function label(id: string, text: string): TrayMenuItem {
  return { id, label: text, enabled: false, type: 'normal' }
}

function separator(id: string): TrayMenuItem {
  return { id, label: '', enabled: false, type: 'separator' }
}
