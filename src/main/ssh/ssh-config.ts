/**
 * "Add to ~/.ssh/config": the Host block for an instance, and writing it with a backup. The
 * block is computed first so the user sees exactly what will be written; writing replaces a
 * block the app wrote earlier for the same alias instead of piling up duplicates.
 */
import { copyFile, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../util/atomic-write'
import type { SshTarget } from './target'

export interface HostBlockInput {
  instanceId: string
  instanceName: string
  target: SshTarget
  /** The private key the app would use (settings, or the Sandbox's generated key). */
  identityFile?: string | null
}

const BEGIN = '# >>> Cloud Tray'
const END = '# <<< Cloud Tray'

/** `cloudtray-<name>`: letters, digits, dot, dash, underscore only (a Host pattern must not contain spaces or wildcards). */
export function hostAlias(instanceName: string, instanceId: string): string {
  const cleaned = instanceName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `cloudtray-${cleaned || instanceId.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}`
}

export function hostBlock(input: HostBlockInput): { alias: string; block: string } {
  const alias = hostAlias(input.instanceName, input.instanceId)
  const lines = [
    `${BEGIN} ${alias} (instance ${oneLine(input.instanceId)})`,
    `Host ${alias}`,
    `  HostName ${input.target.host}`,
    `  Port ${input.target.port}`,
    `  User ${input.target.username}`
  ]
  if (input.identityFile) lines.push(`  IdentityFile ${quoteIfNeeded(input.identityFile)}`)
  lines.push(`${END} ${alias}`)
  return { alias, block: lines.join('\n') + '\n' }
}

/**
 * The config text with the block in place: an earlier Cloud Tray block for the same alias is
 * replaced, otherwise the block is appended after a blank line.
 */
export function mergeHostBlock(existing: string, alias: string, block: string): string {
  const lines = existing.split('\n')
  const start = lines.findIndex((line) => line.startsWith(`${BEGIN} ${alias} `) || line === `${BEGIN} ${alias}`)
  if (start !== -1) {
    const end = lines.findIndex((line, index) => index > start && line.trim() === `${END} ${alias}`)
    if (end !== -1) {
      const before = lines.slice(0, start).join('\n')
      const after = lines.slice(end + 1).join('\n')
      return `${before}${before ? '\n' : ''}${block}${after}`
    }
  }
  if (existing === '') return block
  const separator = existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n'
  return `${existing}${separator}${block}`
}

export interface WriteResult {
  path: string
  backupPath: string | null
}

/**
 * Writes the block into `<home>/.ssh/config`. An existing file is first copied to
 * `config.cloudtray-backup-<time>`; a new file and folder get OpenSSH's private modes.
 */
export async function writeHostBlock(home: string, alias: string, block: string, now: number): Promise<WriteResult> {
  const dir = join(home, '.ssh')
  const path = join(dir, 'config')
  await mkdir(dir, { recursive: true, mode: 0o700 })
  let existing: string | null = null
  try {
    existing = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  let backupPath: string | null = null
  if (existing !== null) {
    backupPath = `${path}.cloudtray-backup-${new Date(now).toISOString().replace(/[:.]/g, '-')}`
    await copyFile(path, backupPath)
  }
  // Atomic: a crash mid-write must not leave the user with half an ssh config.
  await writeFileAtomic(path, mergeHostBlock(existing ?? '', alias, block), 0o600)
  return { path, backupPath }
}

export function sshConfigPath(home: string): string {
  return join(home, '.ssh', 'config')
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ')
}

function quoteIfNeeded(path: string): string {
  return /\s/.test(path) ? `"${path}"` : path
}
