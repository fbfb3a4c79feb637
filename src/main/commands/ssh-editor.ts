/**
 * "Open in VS Code" / "Open in Cursor": the instance's Host block must already be in
 * ~/.ssh/config, exactly as "Add to ~/.ssh/config" would write it (the window shows the block
 * and writes it first, with a backup); then the editor's Remote-SSH link to that alias and the
 * instance user's home goes to the OS. The home is asked of the instance on its shared
 * connection (a fixed command, never prompting); when that cannot be had the editor opens the
 * remote without a folder.
 */
import { AppError } from '../app-error'
import { EDITOR_NAMES, editorUrl } from '../ssh/config/editors'
import { hostAlias, hostBlockInPlace, readSshConfig } from '../ssh/config/ssh-config'
import type { SshWing } from '../ssh/ssh-wing'
import type { CommandGroup } from './dispatcher'

/** What "Open in …" uses of the SSH wing. */
export type EditorDeps = Pick<SshWing, 'links' | 'homeDir' | 'hostBlock' | 'openEditor' | 'editors'>

/** How long "Open in …" waits for the instance to say where home is. */
export const HOME_LOOKUP_MS = 5_000

export type EditorCommand = 'editor.available' | 'editor.open'

export function editorCommands(deps: EditorDeps): CommandGroup<EditorCommand> {
  return {
    handlers: {
      'editor.available': async () => ({ editors: deps.editors() }),
      'editor.open': async ({ instanceId, editor }) => {
        const input = deps.hostBlock(instanceId)
        const existing = (await readSshConfig(deps.homeDir).catch(() => null)) ?? ''
        if (!hostBlockInPlace(existing, input)) {
          throw new AppError(
            'not-allowed',
            `${EDITOR_NAMES[editor]} connects through the instance's Host entry in ~/.ssh/config, which is not there (or out of date). Review and write it, then open again.`,
            { field: 'config' }
          )
        }
        const home = await deps.links
          .exec(instanceId, 'printf %s "$HOME"', { timeoutMs: HOME_LOOKUP_MS, maxOutputBytes: 4096 })
          // A home cut off at the limit is not the home (it would still look like a path): none.
          .then((result) => (result.exitCode === 0 && !result.truncated ? result.stdout : undefined))
          .catch(() => undefined)
        const url = editorUrl(editor, hostAlias(input.instanceName, input.instanceId), home)
        try {
          await deps.openEditor(url)
        } catch (error) {
          // The OS refused the link (on Linux: no handler for vscode:, ship's scheme-handler.ts): the
          // window says so in words, with the editor's download page (field `editor`).
          const said = (error as Error).message.replace(/\.$/, '')
          const reason = said.charAt(0).toLowerCase() + said.slice(1)
          throw new AppError(
            'not-allowed',
            `${EDITOR_NAMES[editor]} did not open: ${reason}. It seems not to be installed here: install it with its Remote - SSH extension, then open again.`,
            { field: 'editor', cause: error }
          )
        }
        return { url }
      }
    }
  }
}
