/**
 * What a person sees when Cloud Tray cannot start (index.ts shows it in an error box, then quits):
 * what happened and what to do, in their words, instead of Electron's stack-trace box and a
 * process left running with no window. Pure, with a table test.
 */
import { diskProblem } from './util/disk-problem'

export interface StartupFailure {
  title: string
  content: string
}

export function startupFailure(error: unknown, dataDir: string): StartupFailure {
  const title = 'Cloud Tray could not start'
  const { path, message } = (error ?? {}) as { path?: unknown; message?: unknown }
  const problem = diskProblem(error)
  if (problem && typeof path === 'string' && (path === dataDir || path.startsWith(dataDir))) {
    return {
      title,
      content:
        `Cloud Tray keeps its settings and sign-in in ${dataDir}, and could not use that folder: ${problem}.\n\n` +
        'Make sure the folder can be created and that you can write to it, then start Cloud Tray again.'
    }
  }
  const detail = typeof message === 'string' && message ? message : String(error)
  return {
    title,
    content:
      `Something went wrong while Cloud Tray was starting (${detail}).\n\n` +
      `Start it again. If this keeps happening, please report it and include the log in ${dataDir}, in the logs folder, if there is one.`
  }
}
