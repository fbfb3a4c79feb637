/**
 * The review's list of the rest of the request (#24: "everything that will be sent is on the
 * review"): the data disk, Docker and its storage, common data, the init script's first lines,
 * the remote storage and the published ports, each said even when it is off or empty, so the
 * review is the whole request in words. Pure; launch-review.ts puts these after the instance's own lines.
 */
import type { CreateDraft } from './create-form'

export interface ReviewLine {
  label: string
  value: string
  /** Shown as code (the init script's lines). */
  code?: boolean
}

/** How many of the init script's lines the review shows. */
export const SCRIPT_LINES_SHOWN = 3

/** The init script as the review shows it: its first lines, and how many more there are. */
export function scriptPreview(script: string): string {
  const lines = script.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n')
  if (script.trim() === '') return 'None'
  const shown = lines.slice(0, SCRIPT_LINES_SHOWN).join('\n')
  const more = lines.length - SCRIPT_LINES_SHOWN
  return more > 0 ? `${shown}\n… and ${more} more ${more === 1 ? 'line' : 'lines'}` : shown
}

export function sentLines(draft: CreateDraft): ReviewLine[] {
  const extra = draft.extraDataDiskSizeGB ?? 0
  const docker = draft.dockerStorageSize ?? 0
  return [
    { label: 'Data disk', value: extra > 0 ? `${extra} GB, besides the type's own disk` : "None: the type's own disk only" },
    {
      label: 'Docker',
      value: draft.enableDocker ? (docker > 0 ? `On, with ${docker} GB of storage` : 'On, with the default storage') : 'Off'
    },
    { label: 'Common data', value: draft.enableCommonData ? "On: the provider's shared datasets are mounted" : 'Off' },
    {
      label: 'Remote storage',
      value:
        draft.storages.length === 0
          ? 'None'
          : draft.storages.map((row) => `${row.remoteStorageName || row.remoteStorageId || 'storage'} at ${row.mountPath}`).join('; ')
    },
    {
      label: 'Published ports',
      value: draft.nodePorts.length === 0 ? 'None besides SSH (22)' : `${draft.nodePorts.join(', ')}, and SSH (22)`
    },
    { label: 'Init script', value: scriptPreview(draft.initScript), ...(draft.initScript.trim() ? { code: true } : {}) }
  ]
}
