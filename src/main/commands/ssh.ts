/**
 * The SSH command group, handlers over the SSH wing (ssh/ssh-wing.ts): terminals (`ssh.*`; input,
 * resize and acks as notices), port tunnels (`tunnels.*`, ssh-tunnels.ts), files panels
 * (`files.*`, ssh-files.ts), "Open in VS Code / Cursor" (`editor.*`, ssh-editor.ts) and the
 * copy/config helpers. Terminal bytes go only to the client that opened the terminal; what a
 * window owns is checked against the window that asks.
 */
import { AppError } from '../app-error'
import { hostBlockInPlace, planHostBlock, readSshConfig, sshConfigPath, writeHostBlock } from '../ssh/config/ssh-config'
import type { SshWing } from '../ssh/ssh-wing'
import type { CommandGroup } from './dispatcher'
import { editorCommands, type EditorCommand } from './ssh-editor'
import { filesCommands, type FilesCommand, type FilesNotice } from './ssh-files'
import { tunnelCommands, type TunnelCommand } from './ssh-tunnels'

type SshCommand =
  | 'ssh.open'
  | 'ssh.close'
  | 'ssh.sessions'
  | 'ssh.endSession'
  | 'ssh.reconnect'
  | 'ssh.answer'
  | 'ssh.forgetHostKey'
  | 'ssh.command'
  | 'ssh.configPreview'
  | 'ssh.configWrite'

type SshNotice = 'ssh.ack' | 'ssh.input' | 'ssh.resize' | 'ssh.eof'

export type SshGroup = CommandGroup<SshCommand | TunnelCommand | FilesCommand | EditorCommand, SshNotice | FilesNotice>

export function sshCommands(wing: SshWing): SshGroup {
  const { terminals, links } = wing
  const configPath = sshConfigPath(wing.homeDir)
  const configFailure = (verb: string, error: unknown): AppError =>
    error instanceof AppError
      ? error
      : new AppError(
          'io',
          `Could not ${verb} ${configPath}: ${(error as Error).message}. Nothing was changed; check the file's permissions.`,
          { cause: error }
        )
  const filesGroup = filesCommands(wing.files, wing.pickFolder)
  // exec's failures (not running, host key not trusted yet, …) in the words they already have.
  const sessionsCall = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      if (error instanceof AppError) throw error
      throw new AppError('ssh', (error as Error).message, { cause: error })
    }
  }

  return {
    handlers: {
      ...tunnelCommands(wing.tunnels).handlers,
      ...filesGroup.handlers,
      ...editorCommands(wing).handlers,
      // A command line's session runs once, never in tmux; a window's tab in its tmux session.
      'ssh.open': async ({ instanceId, cols, rows, session, run }, { clientId }) =>
        run
          ? terminals.open(instanceId, cols, rows, clientId, undefined, run)
          : wing.openTerminal(instanceId, cols, rows, clientId, session),
      'ssh.close': async ({ terminalId, end }, { clientId }) => terminals.close(terminalId, clientId, end === true),
      'ssh.sessions': async ({ instanceId }) => sessionsCall(() => wing.sessions.list(instanceId)),
      'ssh.endSession': async ({ instanceId, session }) => sessionsCall(() => wing.sessions.end(instanceId, session)),
      'ssh.reconnect': async ({ terminalId }, { clientId }) => terminals.reconnect(terminalId, clientId),
      'ssh.answer': async ({ promptId, answer }, { clientId }) => links.answer(promptId, answer, clientId),
      'ssh.forgetHostKey': async ({ host, port }) => {
        try {
          await links.forgetHostKey(host, port)
        } catch (error) {
          throw new AppError(
            'io',
            `Could not remove the old host key: ${(error as Error).message}. Check that your known_hosts files are writable.`,
            { cause: error }
          )
        }
      },
      'ssh.command': async ({ instanceId }) => ({ command: wing.sshCommand(instanceId) }),
      'ssh.configPreview': async ({ instanceId }) => {
        const input = wing.hostBlock(instanceId)
        try {
          const read = await readSshConfig(wing.homeDir)
          const existing = read ?? ''
          const plan = planHostBlock(existing, input)
          return {
            path: configPath,
            block: plan.block,
            placement: plan.placement,
            inPlace: hostBlockInPlace(existing, input),
            exists: read !== null
          }
        } catch (error) {
          throw configFailure('read', error)
        }
      },
      'ssh.configWrite': async ({ instanceId, block }) => {
        const input = wing.hostBlock(instanceId)
        let outcome: Awaited<ReturnType<typeof writeHostBlock>>
        try {
          outcome = await writeHostBlock(wing.homeDir, input, block, wing.clock.now())
        } catch (error) {
          throw configFailure('write', error)
        }
        if (!outcome.written) {
          throw new AppError(
            'not-allowed',
            `The Host block changed since you reviewed it (the instance's SSH details or your config file changed). Nothing was written. Review the new block and write again.`,
            { field: 'block' }
          )
        }
        return { path: outcome.path, backupPath: outcome.backupPath }
      }
    },
    notices: {
      'ssh.input': ({ terminalId, data }, { clientId }) => terminals.input(terminalId, data, clientId),
      'ssh.resize': ({ terminalId, cols, rows }, { clientId }) => terminals.resize(terminalId, cols, rows, clientId),
      'ssh.eof': ({ terminalId }, { clientId }) => terminals.eof(terminalId, clientId),
      'ssh.ack': ({ terminalId, bytes, parseMs }, { clientId }) => terminals.ack(terminalId, bytes, clientId, parseMs),
      ...filesGroup.notices
    }
  }
}
