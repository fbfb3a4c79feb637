/**
 * "Install Command Line Tool…" (macOS's app menu, Windows' tray menu; the Linux packages do it
 * at install time): puts `cloud-tray`, which the installers place inside the app
 * (`<resources>/cli`), on the user's PATH, as VS Code does for `code`. The plan says exactly what
 * is written where before anything is; the app shows it and asks (cli-install-adapter.ts).
 *
 * - macOS: a symbolic link `/usr/local/bin/cloud-tray` → the launcher in the app bundle; where
 *   the user may not write there, once more with the administrator's password (the system asks).
 *   Another program's file of that name is left alone.
 * - Windows: the launcher's folder added to the user's own PATH (HKEY_CURRENT_USER\Environment),
 *   nothing else changed; terminals opened afterwards find `cloud-tray`.
 */
import { posix, win32 } from 'node:path'

export type InstallAction = { kind: 'link'; path: string; target: string } | { kind: 'user-path'; folder: string }

export interface InstallPlan {
  actions: InstallAction[]
  /** For the dialog: exactly what will be written where, and what it replaces. */
  summary: string
}

/** What is at the link's place now (macOS). */
export type Existing = { kind: 'none' } | { kind: 'link'; target: string } | { kind: 'other' }

export const MAC_LINK_DIR = '/usr/local/bin'

/** undefined where the app does not offer it (Linux: the deb and rpm put it on the PATH). */
export function cliInstallPlan(
  platform: NodeJS.Platform,
  resourcesPath: string,
  existing: Existing = { kind: 'none' },
  linkDir = MAC_LINK_DIR
): InstallPlan | undefined {
  if (platform === 'darwin') {
    const target = posix.join(resourcesPath, 'cli', 'cloud-tray')
    const path = posix.join(linkDir, 'cloud-tray')
    if (existing.kind === 'other') {
      return {
        actions: [],
        summary: `${path} already exists and is not a link Cloud Tray made, so Cloud Tray leaves it alone. Remove it first to install cloud-tray there.`
      }
    }
    const replaces =
      existing.kind === 'link' && existing.target !== target ? ` It replaces the link there now, which points to ${existing.target}.` : ''
    return {
      actions: [{ kind: 'link', path, target }],
      summary: `Cloud Tray will make one symbolic link, ${path}, pointing to ${target}.${replaces} If your user may not write in ${linkDir}, macOS asks for an administrator's password. The command line needs Node.js 20.19 or newer.`
    }
  }
  if (platform === 'win32') {
    const folder = win32.join(resourcesPath, 'cli')
    return {
      actions: [{ kind: 'user-path', folder }],
      summary: `Cloud Tray will add ${folder} (where cloud-tray.cmd is) to your user PATH, in HKEY_CURRENT_USER\\Environment; nothing else is changed. Terminals opened afterwards find cloud-tray. The command line needs Node.js 20.19 or newer.`
    }
  }
  return undefined
}

/** What installing needs of the system; the adapter gives the real one, tests a recorder or a temp folder. */
export interface InstallSystem {
  /** Makes (or replaces) the link; rejects with the errno (EACCES, ENOENT) when it may not. */
  link(target: string, path: string): Promise<void>
  /** The same as the administrator (macOS: the system's password dialog). */
  linkAsAdmin(target: string, path: string): Promise<void>
  userPath(): Promise<string>
  setUserPath(value: string): Promise<void>
}

/** Does the plan; answers what was done, in words. */
export async function installCli(plan: InstallPlan, system: InstallSystem): Promise<string[]> {
  const done: string[] = []
  for (const action of plan.actions) {
    if (action.kind === 'link') {
      try {
        await system.link(action.target, action.path)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code !== 'EACCES' && code !== 'EPERM' && code !== 'ENOENT') throw error
        await system.linkAsAdmin(action.target, action.path)
      }
      done.push(`Made ${action.path} → ${action.target}.`)
    } else {
      const current = await system.userPath()
      const next = withFolder(current, action.folder)
      if (next === current) done.push(`${action.folder} is already on your PATH.`)
      else {
        await system.setUserPath(next)
        done.push(`Added ${action.folder} to your PATH. Open a new terminal to use cloud-tray.`)
      }
    }
  }
  return done
}

/** The user's PATH with `folder` at its end, once (Windows compares folders without case or a trailing \). */
export function withFolder(path: string, folder: string): string {
  const same = (a: string): string => a.trim().replace(/\\+$/, '').toLowerCase()
  const parts = path.split(';').filter((part) => part.trim() !== '')
  if (parts.some((part) => same(part) === same(folder))) return path
  return [...parts, folder].join(';')
}

/**
 * The administrator's link, as one AppleScript line for osascript: the paths go through
 * AppleScript's `quoted form of` (shell quoting) after being escaped as AppleScript strings, so
 * no path can become part of the command.
 */
export function adminLinkScript(target: string, path: string): string {
  const literal = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
  return `do shell script "mkdir -p " & quoted form of ${literal(posix.dirname(path))} & " && ln -sfn " & quoted form of ${literal(target)} & " " & quoted form of ${literal(path)} with administrator privileges`
}
