/**
 * "Open in VS Code / Cursor" against Debian's sshd: refused (with the field the window acts on)
 * until the Host block is written exactly as previewed; then the editor's Remote-SSH link to that
 * alias and the home the instance reports (over the shared connection, never prompting) goes to
 * the OS; a system that cannot open it says so.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { skipBecause } from '../../shared/node/testing/platform-support'
import type { Settings } from '../../shared/contract'
import type { Platform } from '../core-types'
import { KnownHostsStore } from '../ssh/host-keys/known-hosts-store'
import { runningInstance } from '../ssh/testing/instance'
import { opensshAvailable } from '../ssh/testing/openssh-server'
import { useOpenSshServer } from '../ssh/testing/use-openssh-server'
import { callHandler as call, fakeWingOptions, sshGroupOver } from './testing/ssh-group'

describe.skipIf(
  skipBecause(opensshAvailable() ? undefined : 'needs /usr/sbin/sshd and ssh-keygen (Debian openssh-sshd.server)', 'the editor tests')
)('open the instance in an editor', () => {
  const sshd = useOpenSshServer('cloudtray-editor-')

  it('writes nothing by itself, then opens vscode://vscode-remote/ssh-remote+<alias>/<home>', async () => {
    const home = join(sshd.scratch, 'home')
    const dataDir = join(sshd.scratch, 'data')
    mkdirSync(join(home, '.ssh'), { recursive: true })
    const instance = runningInstance({
      instanceId: 'i-ed',
      name: 'Edit Box',
      host: '127.0.0.1',
      port: sshd.server.port,
      username: sshd.server.username
    })
    const { options } = fakeWingOptions(dataDir, [instance])
    ;(options.settings.get() as { sshKeyFile: Settings['sshKeyFile'] }).sshKeyFile = sshd.server.userKeyPath
    const opened: string[] = []
    let failOpen = false
    options.platform = {
      shell: 'electron',
      openEditor: async (url: string) => {
        if (failOpen) throw new Error('no application is registered for vscode:')
        opened.push(url)
      }
    } as unknown as Platform
    const { keyType, keyBase64 } = sshd.server.hostPublicKey()
    await new KnownHostsStore(join(dataDir, 'known_hosts'), undefined).remember('127.0.0.1', sshd.server.port, { keyType, keyBase64 })
    const { wing, group } = sshGroupOver(options, { homeDir: home, agent: undefined, editors: () => ['vscode', 'cursor'] })
    try {
      expect(await call(group, 'editor.available', undefined)).toEqual({ editors: ['vscode', 'cursor'] })
      await expect(call(group, 'editor.open', { instanceId: 'i-ed', editor: 'vscode' })).rejects.toMatchObject({
        field: 'config',
        message: expect.stringMatching(/^VS Code connects through the instance's Host entry/)
      })
      expect(opened).toEqual([])

      const preview = await call<{ block: string; inPlace: boolean }>(group, 'ssh.configPreview', { instanceId: 'i-ed' })
      expect(preview.inPlace).toBe(false)
      await call(group, 'ssh.configWrite', { instanceId: 'i-ed', block: preview.block })
      expect((await call<{ inPlace: boolean }>(group, 'ssh.configPreview', { instanceId: 'i-ed' })).inPlace).toBe(true)

      const { url } = await call<{ url: string }>(group, 'editor.open', { instanceId: 'i-ed', editor: 'vscode' })
      // The fixture's sessions have HOME set to its home folder.
      expect(url).toBe(`vscode://vscode-remote/ssh-remote+cloudtray-edit-box${sshd.server.homePath}`)
      expect(opened).toEqual([url])
      expect((await call<{ url: string }>(group, 'editor.open', { instanceId: 'i-ed', editor: 'cursor' })).url).toMatch(
        /^cursor:\/\/vscode-remote\/ssh-remote\+cloudtray-edit-box\//
      )

      // The OS refuses the link (no handler for vscode:): said in words, on the field the window shows the download page for.
      failOpen = true
      await expect(call(group, 'editor.open', { instanceId: 'i-ed', editor: 'vscode' })).rejects.toMatchObject({
        field: 'editor',
        message:
          'VS Code did not open: no application is registered for vscode:. It seems not to be installed here: install it with its Remote - SSH extension, then open again.'
      })
    } finally {
      wing.dispose()
    }
  })
})
