/**
 * The contract's commands, one group per area, each made from the parts it needs (Electron
 * Fiddle's table-of-contents shape): core.ts builds the parts and hands this list to the
 * dispatcher, whose tables refuse to compile while a command or notice has no handler here.
 */
import type { Clock } from '../../shared/clock'
import type { Account } from '../account/account'
import type { Availability } from '../availability/availability'
import type { BalanceModel } from '../billing/balance-model'
import type { Catalog } from '../catalog/catalog'
import type { CreateCommand, EventSink, Platform } from '../core-types'
import type { CostGuard } from '../cost/cost-guard'
import type { Jobs } from '../jobs/jobs'
import type { ProxyAuth } from '../network/proxy-auth'
import type { Notifier } from '../notify/notifier'
import type { SettingsStore } from '../settings/settings-store'
import type { SshWing } from '../ssh/ssh-wing'
import type { Templates } from '../templates/templates'
import type { TrayPresenter } from '../tray/tray-presenter'
import type { UpdateService } from '../update/update-service'
import type { Warnings } from '../warnings'
import type { Watcher } from '../watch/watcher'
import { appCommands } from './app'
import { availabilityCommands } from './availability'
import { billingCommands } from './billing'
import { catalogCommands } from './catalog'
import { costCommands } from './cost'
import { instanceCommands } from './instances'
import { jobsCommands } from './jobs'
import { notebookCommands, openNotebook, type NotebookServices } from './notebook'
import { profileCommands } from './profiles'
import { proxyCommands } from './proxy'
import { sandboxCommands } from './sandbox'
import { sessionCommands } from './session'
import { settingsCommands } from './settings'
import { sshCommands } from './ssh'
import { templateCommands } from './templates'
import { terminalsCommands } from './terminals'
import { trayCommands } from './tray'
import { updateCommands } from './update'
import { volumeCommands } from './volumes'

/** Main's parts, as core.ts builds them. */
export interface Parts {
  version: string
  clock: Clock
  emit: EventSink
  platform: Platform
  warnings: Warnings
  settings: SettingsStore
  account: Account
  notifier: Notifier
  watcher: Watcher
  balance: BalanceModel
  catalog: Catalog
  wing: SshWing
  guard: CostGuard
  jobs: Jobs
  updates: UpdateService
  templates: Templates
  availability: Availability
  tray: TrayPresenter
  /** The Create button's own command, as main runs it (a template's launch without the window). */
  create: CreateCommand
  proxies: ProxyAuth
}

export function commandGroups(parts: Parts) {
  const { version, clock, emit, platform, warnings, settings, account, notifier, watcher, balance, catalog, wing, guard, updates, tray } =
    parts
  const { templates, availability, create } = parts
  const { jobs, proxies } = parts
  const notebooks: NotebookServices = {
    platform,
    accessToken: () => account.accessToken(),
    needsNotebookPassword: () => account.needsNotebookPassword(),
    findInstance: (instanceId) => watcher.find(instanceId),
    currentProfile: () => account.currentProfile(),
    sandbox: () => account.sandbox()
  }
  return [
    appCommands({ version, platform, warnings: () => warnings.all() }),
    profileCommands(account),
    sessionCommands(account),
    instanceCommands({ clock, account, watch: watcher, own: notifier, catalog, emit }),
    volumeCommands(account),
    catalogCommands(catalog),
    billingCommands({ signedIn: () => catalog.signedIn(), balance }),
    sandboxCommands({ runningSandbox: () => account.runningSandbox(), balance }),
    settingsCommands({ store: settings, emit, platform, balance }),
    notebookCommands(notebooks),
    trayCommands({
      tray,
      platform,
      emit,
      watcher,
      account,
      openNotebook: (instanceId) => openNotebook(notebooks, instanceId),
      ssh: wing,
      guard,
      restartToUpdate: () => updates.restart(false),
      launch: {
        launchNow: (watchId) => availability.launchNow(watchId),
        cancel: (watchId) => availability.cancel(watchId),
        reviewFill: (templateId) => templates.reviewFill(templateId),
        againFill: (instanceId, review) => templates.againFill(instanceId, review)
      }
    }),
    sshCommands(wing),
    terminalsCommands(wing),
    jobsCommands(jobs),
    costCommands({ guard }),
    templateCommands({ templates, platform, catalog, create, signedIn: () => catalog.signedIn() }),
    availabilityCommands(availability),
    updateCommands(updates),
    proxyCommands(proxies)
  ] as const
}
