/**
 * Secrets the emulator keeps with its state (the SSH host key, the notebook certificate).
 * Written 0600 and atomically (temp file + rename), so a crash mid-write never leaves a half key
 * that the next start would fail to parse.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** Reads `name` under `stateDir`; undefined when it does not exist yet. */
export async function readStateFile(stateDir: string, name: string): Promise<string | undefined> {
  try {
    return await readFile(join(stateDir, name), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

export async function writeStateFile(stateDir: string, name: string, content: string): Promise<void> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 })
  const target = join(stateDir, name)
  const temp = `${target}.${process.pid}.tmp`
  await writeFile(temp, content, { mode: 0o600 })
  await rename(temp, target)
}
