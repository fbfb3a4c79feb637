/**
 * One zod schema per contract command and notice: what the dispatcher accepts from a renderer
 * before any handler runs. A renderer is untrusted input (a compromised page could send anything), so
 * objects are strict, strings bounded, numbers finite. `z.void()` commands take no input.
 */
import { z } from 'zod'
import type { CommandInput, CommandName, NoticeInput, NoticeName } from '../../shared/contract'
import { CreateInstanceRequestSchema, MAX_TEXT_LENGTH } from '../../shared/create-request'
import { CreateVolumeRequestSchema } from '../../shared/volume-request'
import { MAX_LABEL_LENGTH } from '../catalog/image-book'
import { GuardRulesSchema } from '../../shared/guard-rules'
import {
  AutoLaunchSchema,
  DraftLaunchSpecSchema,
  LaunchSpecSchema,
  RelaunchRuleSchema,
  StockTargetSchema,
  TemplateNameSchema
} from '../../shared/launch-spec'
import { MAX_TEMPLATE_FILE_BYTES } from '../templates/template-file'
import { SettingsPatchSchema } from '../settings/settings-schema'
import { FILES_CHUNK } from '../../shared/contract-files'
import { MAX_DOWNLOAD_ITEMS } from '../ssh/sftp/download'
import { MAX_PATH } from '../ssh/sftp/remote-path'
import { JOB_ID, sessionRefSchema } from '../ssh/sessions/session-names'
import { MAX_JOB_COMMAND, MAX_JOB_FOLDER } from '../../shared/contract-jobs'
import { MAX_SAVED_SCROLLBACK, MAX_SAVED_TABS, SAVED_ID } from '../../shared/contract-terminals'

const id = z.string().min(1).max(200)
/** A proxy as main named it: `host:port` or `[v6]:port`. */
const proxyHostPort = z
  .string()
  .max(300)
  .regex(/^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/)
const name = z.string().max(200)
const none = z
  .undefined()
  .or(z.null())
  .transform(() => undefined)

const pager = z.object({ currentPage: z.number().int().min(1).max(100_000), pageSize: z.number().int().min(1).max(500) }).strict()

const dimensions = { cols: z.number().int().min(1).max(2000), rows: z.number().int().min(1).max(1000) }

const promptAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('host-key'), decision: z.enum(['accept-and-remember', 'accept-once', 'cancel']) }).strict(),
  z.object({ kind: z.literal('secret'), values: z.array(z.string().max(10_000)).max(20) }).strict(),
  z.object({ kind: z.literal('cancel') }).strict()
])

const instanceRef = z.object({ instanceId: id }).strict()

/** A command line's session: the command goes to the instance's SSH server as one string, as OpenSSH sends it. */
const sshRun = z
  .object({
    command: z.string().min(1).max(100_000).optional(),
    pty: z.boolean(),
    // A terminal type name; anything else is no TERM a server should be handed.
    term: z
      .string()
      .regex(/^[A-Za-z0-9._+-]{1,64}$/, 'A terminal type is a short name such as xterm-256color.')
      .optional()
  })
  .strict()
const port = z.number().int().min(1, 'Ports go from 1 to 65535.').max(65_535, 'Ports go from 1 to 65535.')
const tunnelRef = z.object({ tunnelId: id }).strict()
const sessionRef = z.object({ sessionId: id }).strict()
/** A path on the instance: checked in full by src/main/ssh/sftp/remote-path.ts. */
const remotePath = z.string().min(1).max(MAX_PATH)
const terminalRef = z.object({ terminalId: id }).strict()
const tmuxSession = sessionRefSchema.strict()
const templateRef = z.object({ templateId: id }).strict()
const watchRef = z.object({ watchId: id }).strict()

export const INPUT_SCHEMAS: { [C in CommandName]: z.ZodType<CommandInput<C>, unknown> } = {
  'app.info': none,
  'profiles.get': none,
  'profiles.save': z.object({ id: id.optional(), name, baseUrl: z.string().max(2000) }).strict(),
  'profiles.remove': z.object({ id }).strict(),
  'profiles.select': z.object({ id }).strict(),
  'session.get': none,
  'session.login': z
    .object({
      profileId: id,
      username: z.string().trim().min(1, 'Enter your user name.').max(200),
      password: z.string().min(1, 'Enter your password.').max(1000),
      rememberMe: z.boolean()
    })
    .strict(),
  'session.loginWithKey': z
    .object({
      profileId: id,
      username: z.string().trim().min(1, 'Enter your user name.').max(200),
      // A header value: one line of printable ASCII, as the console shows it.
      apiKey: z
        .string()
        .trim()
        .min(1, 'Paste your API key.')
        .max(1000)
        .regex(/^[\x21-\x7e]+$/, 'An API key is one line of letters, digits and symbols, without spaces.'),
      rememberMe: z.boolean()
    })
    .strict(),
  'session.notebookSignIn': z.object({ password: z.string().min(1, 'Enter your password.').max(1000) }).strict(),
  'session.logout': none,
  'instances.get': none,
  'instances.refresh': none,
  'instances.page': pager,
  'instances.create': z
    .object({
      request: CreateInstanceRequestSchema,
      notMine: z.array(id).max(100).optional(),
      origin: z.object({ templateId: id.optional(), watchId: id.optional(), relaunchOf: id.optional() }).strict().optional()
    })
    .strict(),
  'instances.stop': instanceRef,
  'instances.terminate': instanceRef,
  'volumes.list': pager,
  'volumes.create': CreateVolumeRequestSchema,
  'catalog.get': none,
  'catalog.refresh': none,
  'images.save': z
    .object({ imageId: z.string().trim().min(1, 'Enter the image id.').max(MAX_TEXT_LENGTH), label: z.string().max(MAX_LABEL_LENGTH) })
    .strict(),
  'images.remove': z.object({ imageId: z.string().min(1).max(MAX_TEXT_LENGTH) }).strict(),
  'balance.get': none,
  'balance.refresh': none,
  'sandbox.makeApiKey': none,
  'sandbox.addMoney': none,
  'settings.get': none,
  'settings.update': SettingsPatchSchema,
  'tray.activate': z.object({ itemId: z.string().min(1).max(300) }).strict(),
  'notebook.open': instanceRef,
  'external.open': z.object({ url: z.string().min(1).max(4000) }).strict(),
  'clipboard.read': none,
  'warnings.get': none,
  'proxy.get': none,
  'proxy.signIn': z
    .object({
      proxy: proxyHostPort,
      // A proxy's user name may be empty (some ask only for a password) but never spans lines: it goes in a header.
      username: z
        .string()
        .max(1000)
        .regex(/^[^\r\n:]*$/, 'A proxy user name is one line, without ":".'),
      password: z
        .string()
        .min(1, 'Enter the proxy password.')
        .max(1000)
        .regex(/^[^\r\n]*$/, 'A password is one line.'),
      remember: z.boolean()
    })
    .strict(),
  'proxy.cancel': z.object({ proxy: proxyHostPort }).strict(),
  'ssh.open': z.object({ instanceId: id, ...dimensions, session: tmuxSession.optional(), run: sshRun.optional() }).strict(),
  'ssh.close': z.object({ terminalId: id, end: z.boolean().optional() }).strict(),
  'ssh.sessions': instanceRef,
  'ssh.endSession': z.object({ instanceId: id, session: tmuxSession }).strict(),
  'ssh.reconnect': terminalRef,
  'ssh.answer': z.object({ promptId: id, answer: promptAnswer }).strict(),
  'ssh.command': instanceRef,
  'ssh.configPreview': instanceRef,
  'ssh.configWrite': z.object({ instanceId: id, block: z.string().min(1).max(20_000) }).strict(),
  'ssh.forgetHostKey': z.object({ host: z.string().min(1).max(300), port: z.number().int().min(1).max(65_535) }).strict(),
  'cost.get': none,
  'cost.setRules': z.object({ instanceId: id, rules: GuardRulesSchema }).strict(),
  'cost.keepRunning': instanceRef,
  'cost.quitOffer': none,
  'cost.stopAll': none,
  'update.get': none,
  'update.check': none,
  'update.restart': z.object({ anyway: z.boolean() }).strict(),
  'tunnels.list': none,
  'tunnels.start': z.object({ instanceId: id, remotePort: port, localPort: port.optional() }).strict(),
  'tunnels.stop': tunnelRef,
  'tunnels.open': tunnelRef,
  'tunnels.checkPort': z.object({ localPort: port }).strict(),
  'editor.available': none,
  'editor.open': z.object({ instanceId: id, editor: z.enum(['vscode', 'cursor']) }).strict(),
  'files.open': instanceRef,
  'files.close': sessionRef,
  'files.list': z.object({ sessionId: id, path: remotePath }).strict(),
  'files.mkdir': z.object({ sessionId: id, path: remotePath }).strict(),
  'files.rename': z.object({ sessionId: id, from: remotePath, to: remotePath }).strict(),
  'files.delete': z.object({ sessionId: id, paths: z.array(remotePath).min(1).max(10_000) }).strict(),
  'files.upload': z
    .object({
      sessionId: id,
      folder: remotePath,
      items: z
        .array(
          z
            .object({
              path: z.string().min(1).max(MAX_PATH),
              kind: z.enum(['file', 'folder']),
              size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
            })
            .strict()
        )
        .min(1)
        .max(MAX_DOWNLOAD_ITEMS),
      replace: z.boolean()
    })
    .strict(),
  'files.download': z.object({ sessionId: id, paths: z.array(remotePath).min(1).max(10_000) }).strict(),
  'files.downloadToFolder': z.object({ sessionId: id, paths: z.array(remotePath).min(1).max(10_000) }).strict(),
  'files.cancel': z.object({ transferId: id }).strict(),
  'terminals.restore': none,
  // Checked tab by tab by the store (ssh/saved-tabs/saved-tabs.ts); here only its size.
  'terminals.save': z
    .object({ tabs: z.array(z.unknown()).max(MAX_SAVED_TABS), activeTab: z.record(id, id), lastInstanceId: id.optional() })
    .strict() as unknown as z.ZodType<CommandInput<'terminals.save'>, unknown>,
  'terminals.saveScrollback': z.object({ paneId: z.string().regex(SAVED_ID), data: z.string().max(MAX_SAVED_SCROLLBACK * 2) }).strict(),
  'jobs.run': z
    .object({
      instanceId: id,
      command: z.string().trim().min(1, 'Type the command line to run.').max(MAX_JOB_COMMAND, `At most ${MAX_JOB_COMMAND} characters.`),
      folder: z.string().max(MAX_JOB_FOLDER, `At most ${MAX_JOB_FOLDER} characters.`),
      stopWhenDone: z.boolean()
    })
    .strict(),
  'jobs.list': instanceRef,
  'jobs.open': z.object({ jobId: z.string().regex(JOB_ID) }).strict(),
  'jobs.remove': z.object({ jobId: z.string().regex(JOB_ID) }).strict(),
  'templates.list': none,
  'templates.save': z
    .object({ templateId: id.optional(), name: TemplateNameSchema, spec: LaunchSpecSchema, relaunch: RelaunchRuleSchema.nullable() })
    .strict(),
  'templates.rename': z.object({ templateId: id, name: TemplateNameSchema }).strict(),
  'templates.duplicate': templateRef,
  'templates.delete': templateRef,
  'templates.export': templateRef,
  'templates.import': z
    .object({ text: z.string().min(1, 'The file is empty.').max(MAX_TEMPLATE_FILE_BYTES), name: z.string().max(200).optional() })
    .strict(),
  'templates.importFile': none,
  'templates.review': templateRef,
  'templates.launch': z
    .object({
      template: z.string().trim().min(1, 'Name the template.').max(200),
      // The create request's own rule for a name (create-request.ts) checks it again on the way out.
      name: z.string().trim().min(1, 'Give the instance a name.').max(MAX_TEXT_LENGTH).optional()
    })
    .strict(),
  'launches.again': z.object({ instanceId: id, review: z.boolean().optional() }).strict(),
  'availability.get': none,
  'availability.watch': z
    .object({
      target: StockTargetSchema,
      spec: DraftLaunchSpecSchema,
      auto: AutoLaunchSchema.safeExtend({ deadline: z.number().finite() }).nullable(),
      templateId: id.optional()
    })
    .strict(),
  'availability.cancel': watchRef,
  'availability.launchNow': watchRef,
  'availability.setRelaunch': z.object({ instanceId: id, rule: RelaunchRuleSchema.nullable() }).strict()
}

export const NOTICE_SCHEMAS: { [N in NoticeName]: z.ZodType<NoticeInput<N>, unknown> } = {
  'ssh.ack': z
    .object({
      terminalId: id,
      bytes: z
        .number()
        .int()
        .min(0)
        .max(1 << 30),
      parseMs: z.number().min(0).max(60_000).optional()
    })
    .strict(),
  'ssh.input': z
    .object({
      terminalId: id,
      data: z.union([
        z.string().max(1_000_000),
        z.instanceof(Uint8Array).refine((data) => data.length <= 1_000_000, 'Input comes in pieces of at most 1 MB.')
      ])
    })
    .strict(),
  'ssh.eof': terminalRef,
  'ssh.resize': z.object({ terminalId: id, ...dimensions }).strict(),
  'files.chunk': z
    .object({
      transferId: id,
      item: z.number().int().min(0),
      offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      data: z
        .instanceof(Uint8Array)
        .refine((data) => data.length > 0 && data.length <= FILES_CHUNK, `A chunk holds 1 to ${FILES_CHUNK} bytes.`)
    })
    .strict(),
  'files.saved': z.object({ transferId: id, bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }).strict()
}

/** The first problem with an input, as a sentence and the dotted field path. */
export function describeInputError(error: z.ZodError): { message: string; field?: string } {
  const issue = error.issues[0]
  if (!issue) return { message: 'The request was not understood.' }
  const field = issue.path.map(String).join('.')
  return field ? { message: `${field}: ${issue.message}`, field } : { message: issue.message }
}
