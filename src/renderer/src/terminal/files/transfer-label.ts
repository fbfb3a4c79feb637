/**
 * A transfer's name in the panel, following its state (#24): "Uploading notes.txt (4 KB)" while it
 * runs, "Uploaded notes.txt (4 KB)" once done (it said "Uploading…" under "Done" before), and a
 * download says where it went: "Downloaded notes.txt (4 KB) to Downloads".
 */
export type TransferPhase = 'starting' | 'running' | 'done' | 'failed' | 'cancelled'

export function transferLabel(direction: 'upload' | 'download', what: string, phase: TransferPhase, folder?: string): string {
  const upload = direction === 'upload'
  switch (phase) {
    case 'done':
      return upload ? `Uploaded ${what}` : `Downloaded ${what}${folder ? ` to ${folder}` : ''}`
    case 'failed':
      return `${upload ? 'Upload' : 'Download'} of ${what} failed`
    case 'cancelled':
      return `${upload ? 'Upload' : 'Download'} of ${what} cancelled`
    default:
      return `${upload ? 'Uploading' : 'Downloading'} ${what}${!upload && folder ? ` to ${folder}` : ''}`
  }
}
