/**
 * The tray menu's items, run by id: the Electron tray calls `tray.activate` in main; a shell
 * without a system tray shows the menu on its page and sends it from there. An item runs only if the current
 * model shows it enabled, so a stale menu cannot stop an instance that is already gone. Items
 * that open a notebook, copy the SSH command or work a port tunnel call the part that does it (the
 * notebook group's openNotebook, the SSH wing), so a failure keeps its own kind and words.
 */
import type { UpdateState } from '../../shared/contract-update'
import type { Instance } from '../../shared/api'
import type { NavigateTarget, TrayMenuItem, TrayModel } from '../../shared/contract'
import { portUrlOf } from '../../shared/instance-rules'
import { AppError } from '../app-error'
import { windowToAsk, type EventSink, type Platform } from '../core-types'
import type { LaunchFill, LaunchNowOutcome } from '../../shared/contract-launch'
import type { TunnelManager } from '../ssh/tunnels/tunnel-manager'
import { parseTrayItemId } from '../tray/tray-model'
import type { CommandGroup } from './dispatcher'

export interface TrayServices {
  /** The menu as it stands (tray/tray-presenter.ts). */
  tray: { model(): TrayModel }
  /** "Restart to update" (update/update-service.ts): the state after asking. */
  restartToUpdate?(): UpdateState
  platform: Pick<Platform, 'showWindow' | 'quit' | 'openExternal' | 'writeClipboard'>
  emit: EventSink
  /** The watcher: "Refresh now", and the instance as it last saw it. */
  watcher: { pollNow(): Promise<unknown>; find(instanceId: string): Instance | undefined }
  /** The account: "Sign out"; an API-key session without a notebook token asks for the password first. */
  account: { logout(): Promise<unknown>; needsNotebookPassword(): boolean }
  /** Opens the instance's notebook window (commands/notebook.ts openNotebook). */
  openNotebook(instanceId: string): Promise<unknown>
  /**
   * The SSH wing: the command to paste into a terminal, and the port tunnels. A tunnel's
   * questions go to the page that clicked (the web shell's), or from the Electron tray to nobody:
   * a first connection that needs one fails with the reason.
   */
  ssh: { sshCommand(instanceId: string): string; tunnels: Pick<TunnelManager, 'start' | 'stop' | 'open' | 'list'> }
  /** The cost guard's "Keep running" (a countdown's item). */
  guard: { keepRunning(instanceId: string): unknown }
  /** Getting the GPU: a watch's "Launch now…" and "Stop watching", a template's launch, "Launch again…". */
  launch: {
    launchNow(watchId: string): Promise<LaunchNowOutcome>
    cancel(watchId: string): void
    reviewFill(templateId: string): Promise<LaunchFill>
    againFill(instanceId: string, review: boolean): LaunchFill
  }
}

export function trayCommands(services: TrayServices): CommandGroup<'tray.activate'> {
  const navigate = (target: NavigateTarget): void => {
    services.platform.showWindow()
    services.emit('navigate', target)
  }
  const copy = (text: string): void => {
    if (!services.platform.writeClipboard) throw new AppError('not-allowed', 'This shell has no clipboard.')
    services.platform.writeClipboard(text)
  }
  return {
    handlers: {
      'tray.activate': async ({ itemId }, { clientId }) => {
        const action = parseTrayItemId(itemId)
        const item = findItem(services.tray.model().items, itemId)
        if (!action || !item) throw new AppError('not-allowed', 'That menu item is no longer there. Open the menu again.')
        if (!item.enabled) throw new AppError('not-allowed', `“${item.label}” is not available right now.`)
        switch (action.kind) {
          case 'open-window':
            services.platform.showWindow()
            return
          case 'more-instances':
            return navigate({ view: 'instances' })
          case 'new-instance':
            return navigate({ view: 'create-instance' })
          case 'new-volume':
            return navigate({ view: 'create-volume' })
          case 'refresh':
            void services.watcher.pollNow()
            return
          case 'sign-in':
            return navigate({ view: 'login' })
          case 'sign-out':
            await services.account.logout()
            return
          case 'quit':
            services.platform.quit()
            return
          case 'update-restart': {
            // Restarts now, or (something is open) the window says what it waits for and offers "anyway".
            const state = services.restartToUpdate?.()
            if (state?.waitingFor) navigate({ view: 'settings' })
            return
          }
          case 'terminal':
            return navigate({ view: 'terminal', instanceId: action.instanceId })
          case 'run-job':
            return navigate({ view: 'instances', instanceId: action.instanceId, show: 'run-job' })
          case 'stop':
            // Stopping ends billing and work in progress: the window asks first.
            return navigate({ view: 'instances', instanceId: action.instanceId, confirm: 'stop' })
          case 'keep-running':
            services.guard.keepRunning(action.instanceId)
            return
          case 'terminate':
            // Deleting cannot be undone: the window's own confirmation (type the name) asks first.
            return navigate({ view: 'instances', instanceId: action.instanceId, confirm: 'terminate' })
          case 'notebook':
            if (services.account.needsNotebookPassword())
              return navigate({ view: 'instances', instanceId: action.instanceId, confirm: 'notebook-password' })
            await services.openNotebook(action.instanceId)
            return
          case 'copy-ssh':
            return copy(services.ssh.sshCommand(action.instanceId))
          case 'forward':
            await services.ssh.tunnels.start({ instanceId: action.instanceId, remotePort: action.remotePort }, windowToAsk(clientId))
            return
          case 'forward-other':
            return navigate({ view: 'instances', instanceId: action.instanceId, show: 'forward-port' })
          case 'tunnel-open':
            await services.ssh.tunnels.open(action.tunnelId)
            return
          case 'tunnel-stop':
            await services.ssh.tunnels.stop(action.tunnelId)
            return
          case 'tunnel-copy': {
            const address = services.ssh.tunnels.list().find((tunnel) => tunnel.tunnelId === action.tunnelId)?.localAddress
            if (!address) throw new AppError('not-allowed', 'That tunnel is no longer there. Open the menu again.')
            return copy(address)
          }
          case 'launch-again':
            return navigate({ view: 'create-instance', fill: services.launch.againFill(action.instanceId, false) })
          case 'template-launch':
            return navigate({ view: 'create-instance', fill: await services.launch.reviewFill(action.templateId) })
          case 'watch-launch':
            // The review step where stock still is; else the form, saying the stock came and went.
            return navigate({ view: 'create-instance', fill: (await services.launch.launchNow(action.watchId)).fill })
          case 'watch-cancel':
            services.launch.cancel(action.watchId)
            return
          case 'open-port': {
            const instance = services.watcher.find(action.instanceId)
            const url = instance ? portUrlOf(instance, action.nodePort) : undefined
            if (!url) throw new AppError('not-allowed', 'That port is no longer forwarded. Refresh and try again.')
            // why: portUrlOf builds http://address:nodePort from the instance; the platform checks it again.
            await services.platform.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK
            return
          }
        }
      }
    }
  }
}

function findItem(items: readonly TrayMenuItem[], id: string): TrayMenuItem | undefined {
  for (const item of items) {
    if (item.id === id) return item
    const inner = item.submenu ? findItem(item.submenu, id) : undefined
    if (inner) return inner
  }
  return undefined
}
