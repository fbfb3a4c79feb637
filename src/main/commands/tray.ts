/**
 * The tray menu: its model, and running an item by id. The Electron tray calls `tray.activate`
 * in main; the web shell's tray panel sends it from the page. An item runs only if the current
 * model shows it enabled, so a stale menu cannot stop an instance that is already gone.
 */
import type { TrayMenuItem } from '../../shared/contract'
import type { CommandGroup, CoreServices } from '../core-types'
import type { CoreInternals } from '../core-internals'
import { AppError } from '../app-error'
import { portUrlOf } from '../../shared/instance-rules'
import { parseTrayItemId } from '../tray/tray-model'

export function trayCommands(services: CoreServices, core: CoreInternals): CommandGroup {
  const navigate = (target: Parameters<typeof services.emit<'navigate'>>[1]): void => {
    services.platform.showWindow()
    services.emit('navigate', target)
  }
  return {
    handlers: {
      'tray.get': async () => core.tray(),
      'tray.activate': async ({ itemId }) => {
        const action = parseTrayItemId(itemId)
        const item = findItem(core.tray().items, itemId)
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
            services.pollSoon('user')
            return
          case 'sign-in':
            return navigate({ view: 'login' })
          case 'sign-out':
            await core.logout()
            return
          case 'quit':
            services.platform.quit()
            return
          case 'terminal':
            return navigate({ view: 'terminal', instanceId: action.instanceId })
          case 'stop':
            // Stopping ends billing and work in progress: the window asks first.
            return navigate({ view: 'instances', instanceId: action.instanceId, confirm: 'stop' })
          case 'notebook': {
            const result = await core.invoke('notebook.open', { instanceId: action.instanceId })
            if (!result.ok) throw new AppError(asAppKind(result.error.kind), result.error.message)
            return
          }
          case 'copy-ssh': {
            const result = await core.invoke('ssh.command', { instanceId: action.instanceId })
            if (!result.ok) throw new AppError(asAppKind(result.error.kind), result.error.message)
            if (!services.platform.writeClipboard) throw new AppError('not-allowed', 'This shell has no clipboard.')
            services.platform.writeClipboard(result.value.command)
            return
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

/** Errors of nested commands keep their message; cloud kinds are reported as `internal`-free app kinds. */
function asAppKind(kind: string): 'not-allowed' | 'no-session' | 'ssh' | 'internal' {
  if (kind === 'no-session' || kind === 'ssh' || kind === 'internal') return kind
  return 'not-allowed'
}
