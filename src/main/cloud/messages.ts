/**
 * Reading the cloud's error messages: which field a message names, and until when a locked
 * account stays locked. Pure string work, so every format the service (or the emulator) uses is
 * pinned by a unit test.
 */
import { z } from 'zod'
import { CreateInstanceRequestSchema } from '../../shared/create-request'
import { CreateVolumeRequestSchema } from '../../shared/volume-request'

/** A dotted request path: `billing.chargeMode`, `nodePorts[0]`, `instanceConfiguration.enableDocker`. */
const PATH = String.raw`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\]|\.\d+)*`

/** `field "a.b" is not set`, `field 'a.b' ...`, `Field: "a.b"`. */
const FIELD_QUOTED = new RegExp(String.raw`\bfield\s*:?\s*["'\`“‘](${PATH})["'\`”’]`, 'i')
const FIELD_QUOTED_ALL = new RegExp(FIELD_QUOTED.source, 'gi')
/** Between one field's words and the next: "; ", ", and ", a new line. */
const TRAILING_JOINT = /[\s;,.]*(?:\band\s*)?$/i
/** At most this many fields are taken from one answer (a hostile one could name thousands). */
const MAX_FIELD_PROBLEMS = 20
/** And each field's words at most this long (the rest is cut, with an ellipsis). */
const MAX_SAID_LENGTH = 300
/** `field a.b must be …`: unquoted, so only trusted when it is dotted or a known request field. */
const FIELD_BARE = new RegExp(String.raw`\bfield\s*:?\s*(${PATH})`, 'i')
/** A quoted dotted path anywhere, e.g. `"billing.duration" must be 1`. */
const QUOTED_PATH = new RegExp(String.raw`["'\`“‘](${PATH})["'\`”’]`, 'g')

/** Every dotted path an object schema describes; an array's element fields without indexes (`remoteStorages.mountPath`). */
export function schemaPaths(schema: z.ZodType, prefix = ''): string[] {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return schemaPaths(schema.unwrap() as z.ZodType, prefix)
  if (schema instanceof z.ZodArray) return schemaPaths(schema.element as z.ZodType, prefix)
  if (!(schema instanceof z.ZodObject)) return []
  return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, field]) => {
    const path = prefix ? `${prefix}.${key}` : key
    return [path, ...schemaPaths(field, path)]
  })
}

/**
 * Request paths the app sends: the create and volume requests as their schemas describe them,
 * and the small bodies the spec gives without one of ours (sign-in, a page, an instance action).
 * A quoted word outside the `field …` phrasing only counts as a field when it is one of these,
 * so a quoted instance or volume name is never mistaken for one.
 */
const KNOWN_REQUEST_PATHS = new Set([
  ...schemaPaths(CreateInstanceRequestSchema),
  ...schemaPaths(CreateVolumeRequestSchema),
  ...['username', 'password', 'rememberMe', 'instanceId', 'pager', 'pager.currentPage', 'pager.pageSize']
])

/** Strips array indexes so `remoteStorages[0].mountPath` can be checked against the known set. */
function withoutIndexes(path: string): string {
  return path.replace(/\[\d+\]|\.\d+(?=\.|$)/g, '')
}

function isKnownPath(path: string): boolean {
  return KNOWN_REQUEST_PATHS.has(withoutIndexes(path))
}

/**
 * The dotted path of the request field a message names, if any.
 * `field "instanceConfiguration.enableDocker" is not set` → `instanceConfiguration.enableDocker`.
 */
export function fieldFromMessage(message: string): string | undefined {
  const quoted = FIELD_QUOTED.exec(message)
  if (quoted?.[1]) return quoted[1]
  const bare = FIELD_BARE.exec(message)
  if (bare?.[1] && (bare[1].includes('.') || isKnownPath(bare[1]))) return bare[1]
  for (const match of message.matchAll(QUOTED_PATH)) {
    const path = match[1]
    if (path && isKnownPath(path)) return path
  }
  return undefined
}

/**
 * Every field a message names with the `field "<path>"` phrasing, each with the words about it
 * (from its phrase to the next one's): `field "name" must be at most 128 characters long; field
 * "instanceConfiguration.dockerStorageSize" must be between 0 and 100000` → two problems. Empty
 * when the message names no field that way. Paths keep their indexes (`nodePorts.2`).
 */
export function fieldProblemsFromMessage(message: string): { field: string; said: string }[] {
  const matches = [...message.matchAll(FIELD_QUOTED_ALL)].slice(0, MAX_FIELD_PROBLEMS)
  return matches.map((match, index) => {
    const end = matches[index + 1]?.index ?? message.length
    const said = message.slice(match.index, end).replace(TRAILING_JOINT, '')
    return { field: match[1]!, said: said.length > MAX_SAID_LENGTH ? `${said.slice(0, MAX_SAID_LENGTH - 1)}…` : said }
  })
}

/** `2026-01-01T12:15:00.000Z`, `2026-01-01 12:15:00 UTC`, `2026-01-01T13:15+01:00`: a zone is required. */
const ISO_INSTANT = /\b(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)\s?(Z|[+-]\d{2}:?\d{2}|UTC|GMT)(?![\w:])/i
const RELATIVE = /\b(?:in|after|for)\s+(\d+(?:\.\d+)?)\s*(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)\b/i

/** The first zoned ISO 8601 instant in `text`, as Unix ms. */
export function instantIn(text: string): number | undefined {
  const match = ISO_INSTANT.exec(text)
  if (!match?.[1] || !match[2] || !match[3]) return undefined
  const zone = /^(UTC|GMT)$/i.test(match[3]) ? 'Z' : match[3].toUpperCase()
  const at = Date.parse(`${match[1]}T${match[2]}${zone}`)
  return Number.isFinite(at) ? at : undefined
}

/**
 * When a locked account unlocks, from the lockout message: an ISO 8601 instant with a zone
 * ("… locked until 2026-01-01T00:15:00.000Z"), or a relative delay ("… try again in 15 minutes")
 * counted from `now`. Undefined when the message does not say.
 */
export function lockedUntilFromMessage(message: string, now: number): number | undefined {
  const at = instantIn(message)
  if (at !== undefined) return at
  if (!/lock|too many/i.test(message)) return undefined
  const relative = RELATIVE.exec(message)
  if (relative?.[1] && relative[2]) {
    const amount = Number(relative[1])
    const unit = relative[2].toLowerCase()
    const ms = unit.startsWith('h') ? 3_600_000 : unit.startsWith('m') ? 60_000 : 1000
    if (Number.isFinite(amount)) return now + Math.round(amount * ms)
  }
  return undefined
}

/** True when a login failure says the account is locked rather than just the password wrong. */
export function saysLocked(message: string): boolean {
  return /\block(ed|out)?\b|too many (failed |wrong )?(login|attempt|tr)/i.test(message)
}

/**
 * A server message made fit to quote to a user: one line, no control characters, bounded.
 * The token is removed separately (redact.ts) because it is known only per request.
 */
export function quotable(message: string, max = 300): string {
  const oneLine = message
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine
}
