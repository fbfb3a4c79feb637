/**
 * The tray menu's items, run by id: the Electron tray calls `tray.activate` in main; a shell
 * without a system tray shows the menu on its page and sends it from there. An item runs only if the current
 * model shows it enabled, so a stale menu cannot stop an instance that is already gone. Items
 * that open a notebook, copy the SSH command or work a port tunnel call those functions directly,
 * so a failure keeps its own kind and words.
 */
import type { UpdateState } from '../../shared/contract-update'
import type { Instance } from '../../shared/api'
import type { NavigateTarget, TrayMenuItem, TrayModel } from '../../shared/contract'
import { portUrlOf } from '../../shared/instance-rules'
import { AppError } from '../app-error'
import type { ClientId, EventSink, Platform } from '../core-types'
import { parseTrayItemId } from '../tray/tray-model'
import type { CommandGroup } from './dispatcher'

export interface TrayServices {
  /** The menu as it stands (tray/tray-presenter.ts). */
  tray(): TrayModel
  /** "Restart to update" (update/update-service.ts): the state after asking. */
  restartToUpdate?(): UpdateState
  platform: Pick<Platform, 'showWindow' | 'quit' | 'openExternal' | 'writeClipboard'>
  emit: EventSink
  /** "Refresh now". */
  refresh(): void
  signOut(): Promise<unknown>
  /** The instance as the watcher last saw it. */
  findInstance(instanceId: string): Instance | undefined
  /** Opens the instance's notebook window (commands/notebook.ts). */
  openNotebook(instanceId: string): Promise<unknown>
  /** An API-key session without a notebook token: the window asks for the password first. */
  needsNotebookPassword(): boolean
  /** The command to paste into a terminal (the ssh commands' `ssh.command`). */
  sshCommand(instanceId: string): Promise<string>
  /** The cost guard's "Keep running" (a countdown's item). */
  keepRunning(instanceId: string): void
  /** The port tunnels (ssh/tunnel-manager.ts). */
  tunnels: TrayTunnels
}

/** What the tray does with port tunnels (the ssh group's TunnelManager). */
export interface TrayTunnels {
  /**
   * Forwards `remotePort`; a connection's questions go to `clientId` (the web shell's page), or,
   * from the Electron tray (MAIN_CLIENT), to nobody: a first connection that needs one fails
   * with the reason.
   */
  start(instanceId: string, remotePort: number, clientId: ClientId): Promise<unknown>
  stop(tunnelId: string): Promise<unknown>
  open(tunnelId: string): Promise<unknown>
  /** The tunnel's local address, or undefined when it is gone. */
  address(tunnelId: string): string | undefined
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
        const item = findItem(services.tray().items, itemId)
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
            services.refresh()
            return
          case 'sign-in':
            return navigate({ view: 'login' })
          case 'sign-out':
            await services.signOut()
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
          case 'stop':
            // Stopping ends billing and work in progress: the window asks first.
            return navigate({ view: 'instances', instanceId: action.instanceId, confirm: 'stop' })
          case 'keep-running':
            services.keepRunning(action.instanceId)
            return
          case 'terminate':
            // Deleting cannot be undone: the window's own confirmation (type the name) asks first.
            return navigate({ view: 'instances', instanceId: action.instanceId, confirm: 'terminate' })
          case 'notebook':
            if (services.needsNotebookPassword())
              return navigate({ view: 'instances', instanceId: action.instanceId, confirm: 'notebook-password' })
            await services.openNotebook(action.instanceId)
            return
          case 'copy-ssh':
            return copy(await services.sshCommand(action.instanceId))
          case 'forward':
            await services.tunnels.start(action.instanceId, action.remotePort, clientId)
            return
          case 'forward-other':
            return navigate({ view: 'instances', instanceId: action.instanceId, show: 'forward-port' })
          case 'tunnel-open':
            await services.tunnels.open(action.tunnelId)
            return
          case 'tunnel-stop':
            await services.tunnels.stop(action.tunnelId)
            return
          case 'tunnel-copy': {
            const address = services.tunnels.address(action.tunnelId)
            if (!address) throw new AppError('not-allowed', 'That tunnel is no longer there. Open the menu again.')
            return copy(address)
          }
          case 'open-port': {
            const instance = services.findInstance(action.instanceId)
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
