/**
 * POST /storage/volume/create's body, described once, in a person's words: main checks what a
 * renderer sends with it and the volume form checks the same before sending, so a problem is
 * said next to its field with the limits the app really has (never schema text).
 */
import { z } from 'zod'

/** The app's cap on a volume's size: a petabyte, far beyond any real request; the cloud judges below it. */
export const MAX_VOLUME_SIZE_GB = 1_000_000
/** The app's cap on names and types (a renderer is untrusted input to main). */
export const MAX_VOLUME_NAME_LENGTH = 200
const MAX_VOLUME_TYPE_LENGTH = 100

const wholeGB = 'Enter the size as a whole number of GB, for example 100.'

export const CreateVolumeRequestSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Give the volume a name.')
      .max(MAX_VOLUME_NAME_LENGTH, `Keep the name to ${MAX_VOLUME_NAME_LENGTH} characters.`),
    sizeGB: z
      .number({ error: wholeGB })
      .int(wholeGB)
      .min(1, 'A volume holds at least 1 GB.')
      .max(MAX_VOLUME_SIZE_GB, `Cloud Tray creates volumes of up to ${MAX_VOLUME_SIZE_GB.toLocaleString('en-US')} GB (1 PB).`),
    region: z.string().trim().min(1, 'Choose a region.').max(200, 'Choose a region from the list.'),
    volumeType: z
      .string()
      .trim()
      .min(1, 'Choose a type, for example filesystem.')
      .max(MAX_VOLUME_TYPE_LENGTH, `Keep the type to ${MAX_VOLUME_TYPE_LENGTH} characters.`)
  })
  .strict()

/** The first problem of each field, by field name; empty when the request is fine. */
export function volumeRequestProblems(input: unknown): Record<string, string> {
  const parsed = CreateVolumeRequestSchema.safeParse(input)
  const problems: Record<string, string> = {}
  if (parsed.success) return problems
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '')
    if (field && !(field in problems)) problems[field] = issue.message
  }
  return problems
}
