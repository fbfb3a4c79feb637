/**
 * Whether tmux is on this machine for the persistent-terminal tests (the Sandbox's and the sshd
 * fixture's sessions run the machine's tmux). A developer without it skips them, saying why; CI
 * installs it (.ci/run, ci.yml), so there a missing tmux is an install failure.
 */
import { execFileSync } from 'node:child_process'
import { skipBecause } from '../../../shared/node/testing/platform-support'

let found: boolean | undefined

function tmuxInstalled(): boolean {
  if (found !== undefined) return found
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' })
    found = true
  } catch {
    found = false
  }
  return found
}

/** True to skip (after printing why); throws on CI where tmux must be installed. */
export function tmuxMissing(): boolean {
  if (process.platform === 'win32') return skipBecause('Windows has no tmux for the Sandbox’s instances', 'persistent terminals')
  if (tmuxInstalled()) return false
  if (process.env['CI'])
    throw new Error('tmux is missing: CI installs it (.ci/run, ci.yml), so the persistent-terminal tests must run there.')
  return skipBecause('tmux is not installed (on Debian or Ubuntu: sudo apt-get install tmux)', 'persistent terminals')
}
