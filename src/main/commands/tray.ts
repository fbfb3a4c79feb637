/**
 * The tray menu: its model, and running an item by id. The Electron tray calls `tray.activate`
 * in main; the web shell's tray panel sends it from the page. An item runs only if the current
 * model shows it enabled, so a stale menu cannot stop an instance that is already gone.
 */
import type { Result, TrayMenuItem } from '../../shared/contract'
import type { CommandGroup, CoreServices } from '../core-types'
import type { CoreInternals } from '../core-internals'
import { AppError } from '../app-error'
import { parseTrayItemId, portAddress } from '../tray/tray-model'

export function trayCommands(services: CoreServices, core: CoreInternals): CommandGroup {
  const navigate = (target: Parameters<typeof services.emit<'navigate'>>[1]): void => {
    services.platform.showWindow()
    services.emit('navigate', target)
  }
  const copy = (text: string): void => {
    if (!services.platform.writeClipboard) throw new AppError('not-allowed', 'This shell has no clipboard.')
    services.platform.writeClipboard(text)
  }
  return {
    handlers: {
      'tray.get': async () => core.tray(),
      'tray.activate': async ({ itemId }, context) => {
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
          case 'notebook':
            await run(core.invoke('notebook.open', { instanceId: action.instanceId }))
            return
          case 'copy-ssh':
            copy((await run(core.invoke('ssh.command', { instanceId: action.instanceId }))).command)
            return
          // From the Electron tray nobody can answer a prompt (clientId main): a first connection
          // that needs one fails with the reason, shown as a notification. The web shell's panel
          // is a page: its prompts are asked there.
          case 'forward':
            await run(core.invoke('tunnels.start', { instanceId: action.instanceId, remotePort: action.remotePort }, context))
            return
          case 'forward-other':
            return navigate({ view: 'instances', instanceId: action.instanceId, show: 'forward-port' })
          case 'tunnel-open':
            await run(core.invoke('tunnels.open', { tunnelId: action.tunnelId }))
            return
          case 'tunnel-stop':
            await run(core.invoke('tunnels.stop', { tunnelId: action.tunnelId }))
            return
          case 'tunnel-copy': {
            const tunnel = (await run(core.invoke('tunnels.list', undefined))).find((each) => each.tunnelId === action.tunnelId)
            if (!tunnel) throw new AppError('not-allowed', 'That tunnel is no longer there. Open the menu again.')
            copy(tunnel.localAddress)
            return
          }
          case 'open-port': {
            const instance = services.findInstance(action.instanceId)
            const url = instance ? portAddress(instance, action.nodePort) : undefined
            if (!url) throw new AppError('not-allowed', 'That port is no longer forwarded. Refresh and try again.')
            // why: portAddress builds http://address:nodePort from the instance; the platform checks it again.
            await services.platform.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK
            return
          }
        }
      }
    }
  }
}

/** The value of a nested command, or its error (kept in its words) thrown on. */
async function run<T>(pending: Promise<Result<T>>): Promise<T> {
  const result = await pending
  if (!result.ok) throw new AppError(asAppKind(result.error.kind), result.error.message)
  return result.value
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
