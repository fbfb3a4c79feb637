/**
 * What a desktop platform truly lacks for some tests, said when they are skipped (CI runs the
 * suite on Linux, macOS and Windows). Only real absences are skipped:
 * - a POSIX shell and terminal: on Windows the Sandbox's instances run PowerShell in a ConPTY,
 *   so tests that type bash into an instance's terminal (`echo $((6*7))`, `stty size`, `yes`)
 *   cannot run there;
 * - POSIX file modes: Windows has none to check (`chmod 600` is not a thing there).
 * OpenSSH has its own check (ssh/testing/openssh-server.ts, opensshAvailable).
 */

export function posixShellMissing(platform: NodeJS.Platform = process.platform): string | undefined {
  return platform === 'win32' ? 'needs a POSIX shell in a terminal; on Windows the Sandbox runs PowerShell in a ConPTY' : undefined
}

export function posixFileModesMissing(platform: NodeJS.Platform = process.platform): string | undefined {
  return platform === 'win32' ? 'Windows has no POSIX file modes to check' : undefined
}

const said = new Set<string>()

/** For `describe.skipIf(…)` / `test.skip(…)`: true to skip, after printing why (once per reason and subject). */
export function skipBecause(reason: string | undefined, what: string): boolean {
  if (reason === undefined) return false
  const line = `[skipped on ${process.platform}] ${what}: ${reason}`
  if (!said.has(line)) {
    said.add(line)
    console.log(line)
  }
  return true
}
