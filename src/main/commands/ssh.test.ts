/**
 * The ssh command group as the core calls it: the copy/config helpers on a fake instance, and
 * a terminal through the handlers against a local OpenSSH server, with bytes reaching only the
 * client that opened it and that client's departure closing the terminal.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Events } from '../../shared/contract'
import { runningInstance } from '../ssh/testing/instance'
import { callHandler as call, fakeWingOptions, sshGroupOver, typeInto as type } from './testing/ssh-group'
import { opensshAvailable } from '../ssh/testing/openssh-server'
import { useOpenSshServer } from '../ssh/testing/use-openssh-server'

describe('ssh commands: copy and config', () => {
  let scratch: string
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'cloudtray-sshcmd-'))
  })
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('answers the ssh command, previews the Host block with the Sandbox key, then writes it', async () => {
    const instance = runningInstance({ instanceId: 'i-1', name: 'trainer', host: '127.0.0.1', port: 31022, username: 'ubuntu' })
    const { options } = fakeWingOptions(join(scratch, 'data'), [instance], '/data/sandbox_ed25519')
    const { wing, group } = sshGroupOver(options, { homeDir: join(scratch, 'home'), agent: undefined })
    await expect(call(group, 'ssh.command', { instanceId: 'i-1' })).resolves.toEqual({ command: 'ssh -p 31022 ubuntu@127.0.0.1' })
    const preview = await call<{ path: string; block: string; placement: string; exists: boolean }>(group, 'ssh.configPreview', {
      instanceId: 'i-1'
    })
    expect(preview.path).toBe(join(scratch, 'home', '.ssh', 'config'))
    // No file yet: nothing to back up (#24: the preview said "backed up first" all the same).
    expect(preview.exists).toBe(false)
    expect(preview.block).toContain(
      'Host cloudtray-trainer\n  HostName 127.0.0.1\n  Port 31022\n  User ubuntu\n  IdentityFile /data/sandbox_ed25519\n'
    )
    expect(preview.placement).toBe('at the end of the file')
    const written = await call<{ path: string; backupPath: string | null }>(group, 'ssh.configWrite', {
      instanceId: 'i-1',
      block: preview.block
    })
    expect(written).toEqual({ path: preview.path, backupPath: null })
    expect(readFileSync(written.path, 'utf8')).toBe(preview.block)
    expect((await call<{ exists: boolean }>(group, 'ssh.configPreview', { instanceId: 'i-1' })).exists).toBe(true)
    wing.dispose()
  })

  it('refuses an instance that is gone or not running, in words the user can act on', async () => {
    const stopped = runningInstance({ instanceId: 'i-2', name: 'idle', host: 'h', port: 1, username: 'u' })
    stopped.instanceRuntimeInfo.status = 'Stopped'
    const { options } = fakeWingOptions(join(scratch, 'data2'), [stopped])
    const { wing, group } = sshGroupOver(options, { homeDir: join(scratch, 'home2'), agent: undefined })
    await expect(call(group, 'ssh.command', { instanceId: 'nope' })).rejects.toThrow(/no longer in your list/)
    await expect(call(group, 'ssh.open', { instanceId: 'i-2', cols: 80, rows: 24 })).rejects.toThrow(/is Stopped, not running/)
    wing.dispose()
  })
})

describe.skipIf(!opensshAvailable())('ssh commands: a terminal through the handlers', () => {
  const sshd = useOpenSshServer('cloudtray-sshcmd-')

  it('routes bytes, status and prompts to the opening client only, and closes its terminals when it goes', async () => {
    const instance = runningInstance({ instanceId: 'i-9', host: '127.0.0.1', port: sshd.server.port, username: sshd.server.username })
    const { options, sent } = fakeWingOptions(join(sshd.scratch, 'data'), [instance])
    ;(options.settings.get() as { sshKeyFile: string | null }).sshKeyFile = sshd.server.userKeyPath
    const { wing, group } = sshGroupOver(options, { homeDir: join(sshd.scratch, 'home'), agent: undefined })
    const { terminalId } = await call<{ terminalId: string }>(group, 'ssh.open', { instanceId: 'i-9', cols: 80, rows: 24 }, 'owner')

    const until = async (check: () => boolean): Promise<void> => {
      for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25))
      expect(check()).toBe(true)
    }
    await until(() => sent.some((item) => item.event === 'ssh.prompt'))
    const prompt = sent.find((item) => item.event === 'ssh.prompt')!
    expect(prompt.target).toBe('owner')
    const promptId = (prompt.payload as { promptId: string }).promptId
    await expect(
      call(group, 'ssh.answer', { promptId, answer: { kind: 'host-key', decision: 'accept-and-remember' } }, 'intruder')
    ).rejects.toThrow()
    await call(group, 'ssh.answer', { promptId, answer: { kind: 'host-key', decision: 'accept-and-remember' } }, 'owner')
    await until(() => sent.some((item) => item.event === 'ssh.status' && (item.payload as { state: string }).state === 'connected'))
    expect(readFileSync(join(sshd.scratch, 'data', 'known_hosts'), 'utf8')).toContain(`[127.0.0.1]:${sshd.server.port} ssh-ed25519 `)
    expect(() => type(group, terminalId, 'x', 'intruder')).toThrow(/terminal is closed/)
    type(group, terminalId, 'echo via-$((3*3))\n', 'owner')
    const text = (): string =>
      sent
        .filter((item) => item.event === 'ssh.data')
        .map((item) => Buffer.from((item.payload as Events['ssh.data']).data).toString('utf8'))
        .join('')
    await until(() => text().includes('via-9'))
    expect(sent.filter((item) => item.event.startsWith('ssh.')).every((item) => item.target === 'owner')).toBe(true)
    expect(JSON.stringify(sent.map((item) => item.payload))).not.toContain('secret-token')

    wing.clientGone('owner')
    expect(() => type(group, terminalId, 'x', 'owner')).toThrow(/terminal is closed/)
    wing.dispose()
  })
})
