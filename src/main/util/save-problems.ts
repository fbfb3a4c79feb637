/**
 * Files main writes in the background (templates, watches, relaunch rules, the cost guard's
 * rules, the saved terminal tabs and scrollback, the jobs, the tunnels): a change is kept in
 * memory at once and written a moment later, so a write the disk refuses has no click left to
 * answer. The user is told with a warning (the window's banner) naming the file and the problem;
 * the next write that works takes it away.
 */
import { basename } from 'node:path'
import type { Warnings } from '../warnings'
import { describeDiskError } from './disk-problem'

export interface SaveProblems {
  /** `what`: what the file holds, in the user's words ("your launch templates"). */
  failed(path: string, what: string, error: unknown): void
  saved(path: string): void
}

export function saveProblemsIn(warnings: Pick<Warnings, 'warn' | 'clear'>): SaveProblems {
  const id = (path: string): string => `not-saved-${basename(path)}`
  // What each failing file was last warned with: a write that fails the same way again (the
  // cost guard writes as its rules move on) does not announce the banner again.
  const failing = new Map<string, string>()
  return {
    failed: (path, what, error) => {
      const message =
        `Cloud Tray could not save ${what} in ${path}: ${describeDiskError(error)}. ` +
        'What changed is kept while Cloud Tray runs, and is saved with the next change once that is fixed.'
      if (failing.get(path) === message) return
      failing.set(path, message)
      warnings.warn(id(path), message)
    },
    saved: (path) => {
      if (failing.delete(path)) warnings.clear(id(path))
    }
  }
}
