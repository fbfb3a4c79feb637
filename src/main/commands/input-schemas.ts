/**
 * One zod schema per contract command: what `handle()` accepts from a renderer before any
 * handler runs. A renderer is untrusted input (a compromised page could send anything), so
 * objects are strict, strings bounded, numbers finite. `z.void()` commands take no input.
 */
import { z } from 'zod'
import { CHARGE_MODES } from '../../shared/api'
import type { CommandInput, CommandName } from '../../shared/contract'
import { SettingsPatchSchema } from '../settings/settings-schema'
import { FILES_CHUNK } from '../../shared/contract-files'
import { MAX_DOWNLOAD_ITEMS } from '../ssh/sftp/download'
import { MAX_PATH } from '../ssh/sftp/remote-path'

const id = z.string().min(1).max(200)
const name = z.string().max(200)
const none = z.undefined().or(z.null()).transform(() => undefined)

const pager = z.object({ currentPage: z.number().int().min(1).max(100_000), pageSize: z.number().int().min(1).max(500) }).strict()

const createInstance = z
  .object({
    name: z.string().min(1).max(200),
    imageId: id,
    instanceTypeId: id,
    region: id,
    billing: z.object({ chargeMode: z.enum(CHARGE_MODES), duration: z.number().int().min(1).max(1000) }).strict(),
    remoteStorages: z
      .array(
        z
          .object({
            mountPath: z.string().min(1).max(500),
            remoteStorageName: z.string().min(1).max(200),
            remoteStorageId: id,
            type: z.string().min(1).max(100)
          })
          .strict()
      )
      .max(50),
    instanceConfiguration: z
      .object({
        extraDataDiskSizeDB: z.number().min(0).max(1_000_000).optional(),
        enableCommonData: z.boolean(),
        enableDocker: z.boolean(),
        dockerStorageSize: z.number().min(0).max(1_000_000).optional(),
        initScript: z.string().max(100_000)
      })
      .strict(),
    isSpotInstance: z.boolean().optional(),
    nodePorts: z.array(z.number().int().min(1).max(65_535)).max(50)
  })
  .strict()

const dimensions = { cols: z.number().int().min(1).max(2000), rows: z.number().int().min(1).max(1000) }

const promptAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('host-key'), decision: z.enum(['accept-and-remember', 'accept-once', 'cancel']) }).strict(),
  z.object({ kind: z.literal('secret'), values: z.array(z.string().max(10_000)).max(20) }).strict(),
  z.object({ kind: z.literal('cancel') }).strict()
])

const instanceRef = z.object({ instanceId: id }).strict()
const port = z.number().int().min(1, 'Ports go from 1 to 65535.').max(65_535, 'Ports go from 1 to 65535.')
const tunnelRef = z.object({ tunnelId: id }).strict()
const sessionRef = z.object({ sessionId: id }).strict()
/** A path on the instance: checked in full by src/main/ssh/sftp/remote-path.ts. */
const remotePath = z.string().min(1).max(MAX_PATH)
const terminalRef = z.object({ terminalId: id }).strict()

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
  'session.logout': none,
  'instances.get': none,
  'instances.refresh': none,
  'instances.page': pager,
  'instances.create': z.object({ request: createInstance }).strict(),
  'instances.stop': instanceRef,
  'instances.terminate': instanceRef,
  'volumes.list': pager,
  'volumes.create': z
    .object({
      name: z.string().trim().min(1, 'Enter a volume name.').max(200),
      sizeGB: z.number().int().min(1).max(1_000_000),
      region: id,
      volumeType: z.string().trim().min(1).max(100)
    })
    .strict(),
  'catalog.suggestions': none,
  'settings.get': none,
  'settings.update': SettingsPatchSchema,
  'tray.get': none,
  'tray.activate': z.object({ itemId: z.string().min(1).max(300) }).strict(),
  'notebook.open': instanceRef,
  'external.open': z.object({ url: z.string().min(1).max(4000) }).strict(),
  'warnings.get': none,
  'recorded.get': none,
  'ssh.open': z.object({ instanceId: id, ...dimensions }).strict(),
  'ssh.input': z.object({ terminalId: id, data: z.string().max(1_000_000) }).strict(),
  'ssh.resize': z.object({ terminalId: id, ...dimensions }).strict(),
  'ssh.ack': z.object({ terminalId: id, bytes: z.number().int().min(0).max(1 << 30) }).strict(),
  'ssh.close': terminalRef,
  'ssh.reconnect': terminalRef,
  'ssh.answer': z.object({ promptId: id, answer: promptAnswer }).strict(),
  'ssh.command': instanceRef,
  'ssh.configPreview': instanceRef,
  'ssh.configWrite': z.object({ instanceId: id, block: z.string().min(1).max(20_000) }).strict(),
  'ssh.forgetHostKey': z.object({ host: z.string().min(1).max(300), port: z.number().int().min(1).max(65_535) }).strict(),
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
  'files.chunk': z
    .object({
      transferId: id,
      item: z.number().int().min(0),
      offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      data: z.instanceof(Uint8Array).refine((data) => data.length > 0 && data.length <= FILES_CHUNK, `A chunk holds 1 to ${FILES_CHUNK} bytes.`)
    })
    .strict(),
  'files.download': z.object({ sessionId: id, paths: z.array(remotePath).min(1).max(10_000) }).strict(),
  'files.saved': z.object({ transferId: id, bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }).strict(),
  'files.cancel': z.object({ transferId: id }).strict()
}

/** The first problem with an input, as a sentence and the dotted field path. */
export function describeInputError(error: z.ZodError): { message: string; field?: string } {
  const issue = error.issues[0]
  if (!issue) return { message: 'The request was not understood.' }
  const field = issue.path.map(String).join('.')
  return field ? { message: `${field}: ${issue.message}`, field } : { message: issue.message }
}
