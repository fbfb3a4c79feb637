/**
 * A launch template as a file the user keeps, shares or edits by hand, and the JSON that comes
 * back in: an exported template, or a create request as the provider's console exports it.
 * What comes in is checked at the boundary with the schemas every launch is checked with
 * (src/shared/launch-spec.ts): the first bad field is named by its path, and nothing is saved.
 *
 * The file:
 *   { "cloudTrayTemplate": 1, "name": "…", "regions": ["<region id>", …], "imageLabel": "…",
 *     "relaunch": null | { "maxPricePerHour": 3, "withinHours": 24 }, "request": { …create request… } }
 * `request.region` is the first choice; `regions` lists every region the user accepts.
 */
import { z } from 'zod'
import type { LaunchTemplate, TemplateInput } from '../../shared/contract-launch'
import { CREATE_REQUEST_FIELDS } from '../../shared/create-request'
import { LaunchSpecSchema, MAX_IMAGE_LABEL, RelaunchRuleSchema, TemplateNameSchema, firstProblem } from '../../shared/launch-spec'
import { AppError } from '../app-error'

/** The format's version: a file of a newer one is refused with a sentence saying so. */
export const TEMPLATE_FILE_VERSION = 1
/** A template is a few kilobytes; an init script makes it at most ~130 KiB. */
export const MAX_TEMPLATE_FILE_BYTES = 512 * 1024

const TemplateFileSchema = z.object({
  cloudTrayTemplate: z.literal(TEMPLATE_FILE_VERSION, {
    error: `This file is of another template format; this version reads format ${TEMPLATE_FILE_VERSION}.`
  }),
  name: TemplateNameSchema,
  regions: z.array(z.string()).optional(),
  imageLabel: z.string().max(MAX_IMAGE_LABEL).optional(),
  relaunch: RelaunchRuleSchema.nullable().optional(),
  request: z.unknown()
})

/** What the export writes. */
export function templateFileText(template: LaunchTemplate): string {
  const file = {
    cloudTrayTemplate: TEMPLATE_FILE_VERSION,
    name: template.name,
    regions: template.spec.regions,
    ...(template.spec.imageLabel ? { imageLabel: template.spec.imageLabel } : {}),
    relaunch: template.relaunch,
    request: template.spec.request
  }
  return JSON.stringify(file, null, 2) + '\n'
}

/** A file name for the template: its name with what file systems refuse replaced. */
export function templateFileName(template: Pick<LaunchTemplate, 'name'>): string {
  const base = template.name
    .normalize('NFKC')
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '-')
    .replace(/^[.\s-]+|[.\s-]+$/g, '')
    .slice(0, 60)
  return `${base || 'template'}.cloud-tray-template.json`
}

function refused(field: string, message: string): AppError {
  const where = field ? `The field “${field}” is wrong: ` : ''
  return new AppError('bad-input', `${where}${message.replace(/\.?$/, '.')} Nothing was saved; fix the file and import it again.`, {
    ...(field ? { field } : {})
  })
}

/**
 * Reads an exported template or a console create request into what `templates.save` takes.
 * `name` names a template made from a create request (default: the request's instance name).
 * Throws AppError `bad-input` naming the first bad field.
 */
export function readTemplateJson(text: string, name?: string): TemplateInput {
  if (text.length > MAX_TEMPLATE_FILE_BYTES)
    throw refused('', `The file is over ${MAX_TEMPLATE_FILE_BYTES / 1024} KiB: it is not a template`)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw refused('', `It is not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw refused('', 'Expected a JSON object: a template, or a create request')
  const body = json as Record<string, unknown>
  if ('cloudTrayTemplate' in body) return fromTemplateFile(body)
  if (CREATE_REQUEST_FIELDS.some((field) => field in body)) return fromCreateRequest(body, name)
  throw refused('', 'This JSON is neither a Cloud Tray template nor a create request (it has no name, imageId, instanceTypeId, …)')
}

function fromTemplateFile(body: Record<string, unknown>): TemplateInput {
  const file = TemplateFileSchema.safeParse(body)
  if (!file.success) {
    const problem = firstProblem(file.error)
    throw refused(problem.field, problem.message)
  }
  const request = file.data.request as { region?: unknown } | undefined
  const first = typeof request?.region === 'string' ? [request.region] : []
  const spec = LaunchSpecSchema.safeParse({
    request: file.data.request,
    regions: file.data.regions ?? first,
    ...(file.data.imageLabel ? { imageLabel: file.data.imageLabel } : {})
  })
  if (!spec.success) {
    const problem = firstProblem(spec.error)
    throw refused(problem.field, problem.message)
  }
  return { name: file.data.name, spec: spec.data, relaunch: file.data.relaunch ?? null }
}

/** A console export carries the request's own fields (and sometimes others, which are not ours to keep). */
function fromCreateRequest(body: Record<string, unknown>, name: string | undefined): TemplateInput {
  const known = Object.fromEntries(CREATE_REQUEST_FIELDS.filter((field) => field in body).map((field) => [field, body[field]]))
  const spec = LaunchSpecSchema.safeParse({ request: known, regions: typeof known['region'] === 'string' ? [known['region']] : [] })
  if (!spec.success) {
    const problem = firstProblem(spec.error)
    throw refused(problem.field, problem.message)
  }
  const templateName = TemplateNameSchema.safeParse(name?.trim() ? name : spec.data.request.name)
  if (!templateName.success) throw refused('name', firstProblem(templateName.error).message)
  return { name: templateName.data, spec: spec.data, relaunch: null }
}
