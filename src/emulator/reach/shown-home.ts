/**
 * A Sandbox instance's shell in its home as a real instance shows it (#24): on Linux the shell
 * (or an exec's command) runs in a private mount namespace where the instance's own folder is
 * bound on `/root` (`/home/<user>` for another login), so `pwd`, `$HOME` and `cd ~` say what they
 * say on a real instance instead of a path on the user's computer. The binding is seen by that
 * process and its children only; nothing outside changes. Root needs only `unshare --mount`;
 * anyone else gets a user namespace too (Debian allows them), where the login appears as root.
 *
 * Where that cannot be (macOS, Windows, user namespaces switched off, no such folder to bind on),
 * the shell runs in the real folder as before. SFTP shows the same name everywhere (sftp-jail.ts).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { shownHome } from './sftp-jail'

const UNSHARE = ['/usr/bin/unshare', '/bin/unshare']

/** "$1" the real folder, "$2" the shown one, then the command: arguments, never parts of the script. */
const SCRIPT = 'if mount --bind "$1" "$2" 2>/dev/null; then cd "$2" && export HOME="$2" PWD="$2"; else cd "$1"; fi; shift 2; exec "$@"'

let namespace: { unshare: string; args: string[] } | null | undefined

/** How to get a private mount namespace here, tried once; null where there is none. */
function mountNamespace(): { unshare: string; args: string[] } | null {
  if (namespace !== undefined) return namespace
  namespace = null
  const unshare = process.platform === 'linux' ? UNSHARE.find((path) => existsSync(path)) : undefined
  if (unshare) {
    const args = [...(process.getuid?.() === 0 ? ['--mount'] : ['--user', '--map-root-user', '--mount']), '--propagation', 'private']
    const probe = spawnSync(unshare, [...args, 'true'], { stdio: 'ignore', timeout: 5_000 })
    if (probe.status === 0) namespace = { unshare, args }
  }
  return namespace
}

/** Whether shells here see their home as `shownHome(username)` (tests ask). */
export function showsHome(username: string): boolean {
  return mountNamespace() !== null && existsSync(shownHome(username))
}

/** `file args…` run with the instance's folder shown as its home, where this machine can. */
export function inShownHome(file: string, args: string[], home: string, username: string): { file: string; args: string[] } {
  const shown = shownHome(username)
  const ns = mountNamespace()
  if (!ns || !existsSync(shown)) return { file, args }
  return { file: ns.unshare, args: [...ns.args, 'sh', '-c', SCRIPT, 'sh', home, shown, file, ...args] }
}
