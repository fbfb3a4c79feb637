/**
 * The window's stores that mirror a state of main (lib/mirror.svelte.ts), and when each is read:
 * `start`, as the window opens (it needs no session); `session`, once signed in. The window hears
 * all of them from the start. Events sent while the web shell's socket was down are lost, so
 * after a reconnect every mirror due is read again: this list is the one place that says which.
 */
import { proxyAuth } from './account/proxy-auth.svelte'
import { session } from './account/session.svelte'
import { balance } from './cost/balance.svelte'
import { cost } from './cost/cost.svelte'
import { catalog } from './create/catalog.svelte'
import { instances } from './instances/instances.svelte'
import { tunnels } from './instances/tunnels.svelte'
import { availability } from './launch/availability.svelte'
import { templates } from './launch/templates.svelte'
import { onConnectionState } from './lib/bridge'
import type { MirrorStore } from './lib/mirror.svelte'
import { appSettings } from './lib/settings.svelte'
import { warnings } from './lib/warnings.svelte'
import { updates } from './update/update.svelte'

export type MirrorNeeds = 'start' | 'session'

export const MIRRORS: readonly { name: string; store: MirrorStore; needs: MirrorNeeds }[] = [
  { name: 'session and profiles', store: session, needs: 'start' },
  { name: 'settings', store: appSettings, needs: 'start' },
  { name: 'warnings', store: warnings, needs: 'start' },
  { name: 'tunnels', store: tunnels, needs: 'start' },
  { name: 'updates', store: updates, needs: 'start' },
  // Before sign-in too: the sign-in itself may meet the proxy.
  { name: 'proxy sign-in', store: proxyAuth, needs: 'start' },
  { name: 'instances', store: instances, needs: 'session' },
  { name: 'balance', store: balance, needs: 'session' },
  { name: 'cost guard', store: cost, needs: 'session' },
  { name: 'catalog', store: catalog, needs: 'session' },
  { name: 'availability watches', store: availability, needs: 'session' },
  { name: 'launch templates', store: templates, needs: 'session' }
]

/** Reads every mirror that needs `needs`; resolves when all have answered. */
export async function readMirrors(needs: MirrorNeeds): Promise<void> {
  await Promise.all(MIRRORS.filter((mirror) => mirror.needs === needs).map((mirror) => mirror.store.load()))
}

/** Reads what needs no session, then (the session just read says so) what needs one. */
export async function readAllMirrors(): Promise<void> {
  await readMirrors('start')
  if (session.signedIn) await readMirrors('session')
}

/**
 * Hears every mirror's events, and reads them all again once the web shell's socket is back (in
 * Electron the connection never drops). Returns a function that stops both.
 */
export function followMirrors(): () => void {
  let wasDown = false
  const offs = [
    ...MIRRORS.map((mirror) => mirror.store.listen()),
    onConnectionState((state) => {
      if (state === 'reconnecting') wasDown = true
      if (state === 'open' && wasDown) {
        wasDown = false
        void readAllMirrors()
      }
    })
  ]
  return () => offs.forEach((off) => off())
}
