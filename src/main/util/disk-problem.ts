/**
 * Why a file or folder of Cloud Tray's own could not be written, in the user's words, by Node's
 * error code: one table for every message that names a disk problem (start-up, saving settings
 * and profiles, a download's folder).
 */
import { writeFileAtomic } from '../../shared/node/atomic-write'
import { AppError } from '../app-error'

const DISK_PROBLEMS: Record<string, string> = {
  ENOTDIR: 'a file is where the folder should be',
  EEXIST: 'a file is where the folder should be',
  EISDIR: 'a folder is where the file should be',
  EACCES: 'you do not have permission to write there',
  EPERM: 'you do not have permission to write there',
  EROFS: 'the disk is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'your disk quota is used up'
}

/** The problem a Node file-system error names, or undefined for an error that is not one of these. */
export function diskProblem(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? DISK_PROBLEMS[code] : undefined
}

/** The problem in words when the table knows it, else the error's own message. */
export function describeDiskError(error: unknown): string {
  return diskProblem(error) ?? (error instanceof Error ? error.message : String(error))
}

/**
 * Writes one of the app's own files (atomically) as JSON; when the disk refuses, the error says
 * which file and why in words, and that the change it carried was not made (util/written-state.ts
 * keeps the old value).
 */
export async function saveJsonFile(what: string, path: string, value: unknown): Promise<void> {
  try {
    await writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n')
  } catch (error) {
    const why = `Could not save ${what} in ${path}: ${describeDiskError(error)}. Nothing was changed; fix that and try again.`
    throw new AppError('io', why, { cause: error })
  }
}
