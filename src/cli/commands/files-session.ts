/**
 * A files session on an instance for `cloud-tray cp` (contract-files.ts): opened over the app's
 * shared SSH link, with the SSH questions answered at the terminal (ssh-prompts.ts), and the
 * home folder it starts in.
 */
import type { FilesStatus } from '../../shared/contract-files'
import type { AppClient } from '../app-client'
import { AskCancelled } from '../ask'
import { CliError, EXIT } from '../exit-codes'
import { shown, type Io } from '../output'
import { answerPrompts } from './ssh-prompts'

export interface FilesSession {
  sessionId: string
  home: string
}

export async function openFilesSession(app: AppClient, io: Io, instanceId: string, instanceName: string): Promise<FilesSession> {
  let sessionId: string | undefined
  const early: FilesStatus[] = []
  let settle!: (status: FilesStatus) => void
  const settled = new Promise<FilesStatus>((resolve) => (settle = resolve))
  const seen = (status: FilesStatus): void => {
    if (status.state === 'connected' || status.state === 'failed') settle(status)
    else if (status.state === 'reconnecting' && io.err.isTTY) io.err.write(`${shown(status.message)}\n`)
  }
  const offStatus = app.on('files.status', (status) => {
    if (sessionId === undefined) early.push(status)
    else if (status.sessionId === sessionId) seen(status)
  })
  const prompts = answerPrompts(app, io, instanceName)
  try {
    const opened = await app.invoke('files.open', { instanceId })
    if (!opened.ok) throw new CliError(opened.error.message, opened.error.kind === 'not-allowed' ? EXIT.refused : EXIT.failure)
    sessionId = opened.value.sessionId
    for (const status of early.splice(0)) if (status.sessionId === sessionId) seen(status)
    const status = await settled
    if (prompts.state.cancelled) throw new AskCancelled()
    if (status.state === 'failed' || !status.home) throw new CliError(prompts.state.refusal ?? shown(status.message))
    return { sessionId, home: status.home }
  } finally {
    offStatus()
    prompts.off()
  }
}
