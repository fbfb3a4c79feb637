/**
 * "Add to ~/.ssh/config": the Host block for an instance, where in the file it goes, and
 * writing it with a backup.
 *
 * The block is planned against the file as it is, shown to the user, and written only if the
 * plan made at write time gives the very same block (the instance's details come from the
 * latest poll and may have changed since the preview).
 *
 * OpenSSH uses the first value it obtains for each option, so a block after `Host *` (or any
 * other Host or Match that also matches the alias, or an option set before the first Host) is
 * shadowed by it. The block goes before the first such line; when that means inside the
 * file's opening global options, the block ends with `Host *` so the lines after it still
 * apply to every host, as they did.
 *
 * The file is read line by line as OpenSSH's readconf does (first word the keyword, split by
 * whitespace or `=`, case-insensitive, `#` starts a comment); every other byte of the user's
 * file is kept exactly. A symlinked config is written through to its target.
 */
import { copyFile, lstat, mkdir, readlink, realpath } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { AppError } from '../../app-error'
import { writeFileAtomic } from '../../../shared/node/atomic-write'
import { readTextIfExists } from '../../util/read-text'
import { globMatch } from '../host-keys/known-hosts'
import type { SshTarget } from '../target'

export interface HostBlockInput {
  instanceId: string
  instanceName: string
  /** Checked by sshTarget (ssh-values.ts). */
  target: SshTarget
  /** The private key the app would use (settings, or the Sandbox's generated key). */
  identityFile?: string | null
}

export interface HostBlockPlan {
  alias: string
  /** Exactly the lines that will be written, markers included. */
  block: string
  /** Where the block goes, in words for the preview. */
  placement: string
  /** The whole file with the block in place. */
  config: string
}

const BEGIN = '# >>> Cloud Tray'
const END = '# <<< Cloud Tray'
const ALIAS_MAX = 64

/** `cloudtray-<name>`: letters, digits, dot, dash, underscore only (a Host pattern must not contain spaces or wildcards). */
export function hostAlias(instanceName: string, instanceId: string): string {
  const cleaned = configWord(instanceName.toLowerCase())
  return `cloudtray-${(cleaned || configWord(instanceId.toLowerCase()) || 'instance').slice(0, ALIAS_MAX)}`
}

/** Plans the block for this instance against the current text of the config file. */
export function planHostBlock(existing: string, input: HostBlockInput): HostBlockPlan {
  const alias = hostAlias(input.instanceName, input.instanceId)
  const { lines, ownStart } = withoutOwnBlock(splitLines(existing), alias)
  const parsed = lines.map(parseLine)
  const shadow = firstShadowingLine(parsed, alias)
  // An earlier block stays where it was unless something above it now shadows it.
  const keepPlace = ownStart !== undefined && (shadow === undefined || ownStart <= shadow) && isBoundary(parsed, ownStart)
  const at = keepPlace ? (ownStart as number) : shadow !== undefined ? withAttachedComments(lines, shadow) : lines.length
  const block = blockLines(alias, input, globalOptionsFollow(parsed, at))
  const before = lines.slice(0, at)
  const after = lines.slice(at)
  const merged = [
    ...before,
    ...(before.length > 0 && before[before.length - 1]?.trim() !== '' ? [''] : []),
    ...block,
    ...(after.length > 0 && after[0]?.trim() !== '' ? [''] : []),
    ...after
  ]
  const placement = keepPlace
    ? 'in place of its earlier Cloud Tray block'
    : shadow !== undefined
      ? `before “${shownLine(lines[shadow] ?? '')}”, which would otherwise take precedence (OpenSSH uses the first value it finds)`
      : 'at the end of the file'
  return { alias, block: block.join('\n') + '\n', placement, config: merged.join('\n') + '\n' }
}

/**
 * Whether the file already holds exactly the block that would be written, where it would be
 * written: "Open in VS Code" then goes straight on, without showing the block again.
 */
export function hostBlockInPlace(existing: string, input: HostBlockInput): boolean {
  return existing !== '' && planHostBlock(existing, input).config === existing
}

function blockLines(alias: string, input: HostBlockInput, resetAfter: boolean): string[] {
  const id = configWord(input.instanceId)
  const lines = [
    `${BEGIN} ${alias}${id ? ` (instance ${id})` : ''}`,
    `Host ${alias}`,
    `  HostName ${input.target.host}`,
    `  Port ${input.target.port}`,
    `  User ${input.target.username}`
  ]
  if (input.identityFile) lines.push(`  IdentityFile ${identityFileValue(input.identityFile)}`)
  // Back to every host for the global options that followed this point before.
  if (resetAfter) lines.push('Host *')
  lines.push(`${END} ${alias}`)
  return lines
}

/** Letters, digits, `.`, `_`, `-` only: safe in a Host pattern and in a comment line. */
function configWord(text: string): string {
  return text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
}

/**
 * A local path as an ssh_config argument: `%` doubled (ssh expands `%` tokens in IdentityFile),
 * quoted when it has spaces. A path that cannot be written safely is refused.
 */
function identityFileValue(path: string): string {
  if (/[\u0000-\u001f\u007f"]/.test(path)) {
    throw new AppError(
      'not-allowed',
      `The key file path ${JSON.stringify(path)} has a quote or control character that an SSH config cannot hold. Choose a key file at a plainer path in Settings.`
    )
  }
  const escaped = path.replace(/%/g, '%%')
  return /\s/.test(escaped) ? `"${escaped}"` : escaped
}

type Line =
  { kind: 'blank' } | { kind: 'comment' } | { kind: 'host'; patterns: string[] } | { kind: 'match' } | { kind: 'option'; keyword: string }

function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/** One line as readconf sees it: the keyword is the first word, ended by whitespace or `=`. */
function parseLine(raw: string): Line {
  const text = raw.replace(/[\s\f]+$/, '').replace(/^\s+/, '')
  if (text === '') return { kind: 'blank' }
  if (text.startsWith('#')) return { kind: 'comment' }
  const match = /^([^\s=]+)\s*(?:=\s*|\s+|$)(.*)$/.exec(text)
  const keyword = (match?.[1] ?? text).toLowerCase()
  const rest = match?.[2] ?? ''
  if (keyword === 'host') {
    const words = rest.split(/\s+/).filter((word) => word !== '')
    const comment = words.findIndex((word) => word.startsWith('#'))
    return { kind: 'host', patterns: (comment === -1 ? words : words.slice(0, comment)).map(unquote) }
  }
  if (keyword === 'match') return { kind: 'match' }
  return { kind: 'option', keyword }
}

function unquote(word: string): string {
  return word.length >= 2 && word.startsWith('"') && word.endsWith('"') ? word.slice(1, -1) : word
}

/** Options that, set for every host before our block, would win over ours (or might: Include). */
const SHADOWED_OPTIONS = new Set(['hostname', 'port', 'user', 'include'])

/**
 * The first line whose settings OpenSSH would apply to the alias before ours: a Host whose
 * patterns match it (as ssh matches: a matching `!pattern` excludes), any Match (its criteria
 * may hold), or one of our options set in the global section before the first Host or Match.
 */
function firstShadowingLine(lines: Line[], alias: string): number | undefined {
  let global = true
  for (const [index, line] of lines.entries()) {
    if (line.kind === 'match') return index
    if (line.kind === 'host') {
      global = false
      if (hostMatches(line.patterns, alias)) return index
    }
    if (line.kind === 'option' && global && SHADOWED_OPTIONS.has(line.keyword)) return index
  }
  return undefined
}

function hostMatches(patterns: string[], alias: string): boolean {
  let matched = false
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!')
    if (!globMatch((negated ? pattern.slice(1) : pattern).toLowerCase(), alias)) continue
    if (negated) return false
    matched = true
  }
  return matched
}

function inGlobalSection(lines: Line[], index: number): boolean {
  return !lines.slice(0, index).some((line) => line.kind === 'host' || line.kind === 'match')
}

/** Whether options for every host follow this point before any Host or Match: a block put here needs `Host *` after it. */
function globalOptionsFollow(lines: Line[], index: number): boolean {
  if (!inGlobalSection(lines, index)) return false
  for (const line of lines.slice(index)) {
    if (line.kind === 'host' || line.kind === 'match') return false
    if (line.kind === 'option') return true
  }
  return false
}

/** Whether a block can start here without splitting a Host or Match section in two. */
function isBoundary(lines: Line[], index: number): boolean {
  if (inGlobalSection(lines, index)) return true
  const next = lines.slice(index).find((line) => line.kind !== 'blank' && line.kind !== 'comment')
  return next === undefined || next.kind === 'host' || next.kind === 'match'
}

/** Moves up over comment lines written directly above a line (they describe it), not over our markers. */
function withAttachedComments(raw: string[], index: number): number {
  let at = index
  while (at > 0) {
    const above = (raw[at - 1] ?? '').trim()
    if (!above.startsWith('#') || above.startsWith(BEGIN) || above.startsWith(END)) break
    at--
  }
  return at
}

/** Removes the app's earlier block for this alias, answering where it started. */
function withoutOwnBlock(lines: string[], alias: string): { lines: string[]; ownStart?: number } {
  const isBegin = (line: string): boolean => {
    const text = line.trim()
    return text === `${BEGIN} ${alias}` || text.startsWith(`${BEGIN} ${alias} `)
  }
  const start = lines.findIndex(isBegin)
  if (start === -1) return { lines }
  const end = lines.findIndex((line, index) => index > start && line.trim() === `${END} ${alias}`)
  if (end === -1) return { lines }
  // The blank line put before the block goes with it when nothing but a blank line or the end follows.
  const after = lines.slice(end + 1)
  const dropSeparator = start > 0 && (lines[start - 1] ?? '').trim() === '' && (after.length === 0 || (after[0] ?? '').trim() === '')
  const ownStart = dropSeparator ? start - 1 : start
  return { lines: [...lines.slice(0, ownStart), ...after], ownStart }
}

function shownLine(text: string): string {
  const trimmed = text.trim().replace(/[^\x20-\x7e]/g, '?')
  return trimmed.length > 40 ? `${trimmed.slice(0, 39)}…` : trimmed
}

export type WriteOutcome =
  | { written: true; path: string; backupPath: string | null }
  /** The block planned now is not the one the user saw: nothing was written. */
  | { written: false; block: string }

/**
 * Writes the block into `<home>/.ssh/config` if it is still exactly `previewed`. An existing
 * file is first copied to `config.cloudtray-backup-<time>`; a new file and folder get
 * OpenSSH's private modes. A symlinked config is followed: its target is rewritten and the
 * link stays.
 */
export async function writeHostBlock(home: string, input: HostBlockInput, previewed: string, now: number): Promise<WriteOutcome> {
  const path = sshConfigPath(home)
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const target = await writeTarget(path)
  const existing = await readTextIfExists(target)
  const plan = planHostBlock(existing ?? '', input)
  if (plan.block !== previewed) return { written: false, block: plan.block }
  let backupPath: string | null = null
  if (existing !== null) {
    backupPath = `${path}.cloudtray-backup-${new Date(now).toISOString().replace(/[:.]/g, '-')}`
    await copyFile(target, backupPath)
  }
  // Atomic: a crash mid-write must not leave the user with half an ssh config. The temp file is
  // made beside the target, so the rename replaces the target, never the link.
  const mode = existing !== null ? (await lstat(target)).mode & 0o777 : 0o600
  await writeFileAtomic(target, plan.config, mode)
  return { written: true, path, backupPath }
}

/** The config's current text (through a symlink), or null when there is none. */
export async function readSshConfig(home: string): Promise<string | null> {
  return readTextIfExists(await writeTarget(sshConfigPath(home)))
}

export function sshConfigPath(home: string): string {
  return join(home, '.ssh', 'config')
}

/** The file to write: the config itself, or what it links to (even a link to a file not made yet). */
async function writeTarget(path: string): Promise<string> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return path
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path
    throw error
  }
  try {
    return await realpath(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    return resolve(dirname(path), await readlink(path))
  }
}
