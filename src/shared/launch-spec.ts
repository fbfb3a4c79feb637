/**
 * The launch spec, templates' and watches' rules, described once (#26): main checks what a
 * renderer sends and what its files hold with these schemas, and the forms take their bounds
 * from them. The create request inside a spec is src/shared/create-request.ts's.
 */
import { z } from 'zod'
import { CHARGE_MODES } from './api'
import type { AutoLaunch, LaunchSpec, RelaunchRule, StockTarget } from './contract-launch'
import { CreateInstanceRequestSchema, MAX_LIST_LENGTH, MAX_TEXT_LENGTH } from './create-request'

/** A template's name: short enough for a tray menu. */
export const MAX_TEMPLATE_NAME = 80
/** A price ceiling: a cent an hour to far above any GPU machine's price. */
export const MIN_PRICE_CEILING = 0.01
export const MAX_PRICE_CEILING = 10_000
/** How long a relaunch may keep trying after a reclaim: up to a 30-day month. */
export const MIN_RELAUNCH_HOURS = 0.25
export const MAX_RELAUNCH_HOURS = 720
/** An image's label, as the image book keeps it. */
export const MAX_IMAGE_LABEL = 80

const regionId = z.string().trim().min(1).max(MAX_TEXT_LENGTH)

export const TemplateNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the template a name.')
  .max(MAX_TEMPLATE_NAME, `Keep the name under ${MAX_TEMPLATE_NAME} characters.`)

export const LaunchSpecSchema = z
  .object({
    request: CreateInstanceRequestSchema,
    regions: z.array(regionId).min(1, 'Choose at least one region.').max(MAX_LIST_LENGTH),
    imageLabel: z.string().max(MAX_IMAGE_LABEL).optional()
  })
  .strict()
  // The region the request names is one the user accepts.
  .refine((spec) => spec.regions.includes(spec.request.region), {
    message: 'The region chosen must be one of the regions listed.',
    path: ['regions']
  }) satisfies z.ZodType<LaunchSpec, unknown>

/**
 * A spec the form may still have to complete (a watch that only tells: Launch now opens the form
 * for the instance's name or image still missing). Everything else is checked as in a launch.
 */
export const DraftLaunchSpecSchema = z
  .object({
    request: CreateInstanceRequestSchema.safeExtend({ name: z.string().max(MAX_TEXT_LENGTH), imageId: z.string().max(MAX_TEXT_LENGTH) }),
    regions: z.array(regionId).min(1, 'Choose at least one region.').max(MAX_LIST_LENGTH),
    imageLabel: z.string().max(MAX_IMAGE_LABEL).optional()
  })
  .strict() satisfies z.ZodType<LaunchSpec, unknown>

export const PriceCeilingSchema = z
  .number()
  .finite()
  .min(MIN_PRICE_CEILING, `A price ceiling is at least $${MIN_PRICE_CEILING} per hour.`)
  .max(MAX_PRICE_CEILING, `A price ceiling is at most $${MAX_PRICE_CEILING} per hour.`)

export const AutoLaunchSchema = z.object({ maxPricePerHour: PriceCeilingSchema }).strict() satisfies z.ZodType<AutoLaunch, unknown>

export const RelaunchRuleSchema = z
  .object({
    maxPricePerHour: PriceCeilingSchema,
    withinHours: z
      .number()
      .finite()
      .min(MIN_RELAUNCH_HOURS, `Keep trying at least ${MIN_RELAUNCH_HOURS * 60} minutes.`)
      .max(MAX_RELAUNCH_HOURS, `Keep trying at most ${MAX_RELAUNCH_HOURS} hours.`)
  })
  .strict() satisfies z.ZodType<RelaunchRule, unknown>

export const StockTargetSchema = z
  .object({
    instanceTypeId: z.string().trim().min(1).max(MAX_TEXT_LENGTH),
    regions: z.array(regionId).min(1, 'Tick at least one region.').max(MAX_LIST_LENGTH),
    chargeMode: z.enum(CHARGE_MODES)
  })
  .strict() satisfies z.ZodType<StockTarget, unknown>

/** The first problem zod found, naming the field by its dotted path: `request.billing.chargeMode: …`. */
export function firstProblem(error: z.ZodError, prefix = ''): { field: string; message: string } {
  const issue = error.issues[0]
  const field = [prefix, ...(issue?.path.map(String) ?? [])].filter(Boolean).join('.')
  return { field, message: issue?.message ?? 'not what was expected' }
}
