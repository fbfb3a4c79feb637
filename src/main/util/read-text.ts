/** A text file's content, or null when there is no such file (any other failure is thrown). */
import { readFile } from 'node:fs/promises'

export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
