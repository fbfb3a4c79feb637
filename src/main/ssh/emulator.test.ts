/**
 * The whole chain against the emulator's own SSH server (src/emulator/reach): the core starts
 * the Sandbox with reach, the Sandbox registers its generated key, an instance is created and
 * reaches Running, and `ssh.*` commands through `core.handle` give a shell that echoes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { posixShellMissing, skipBecause } from '../../shared/node/testing/platform-support'
import { pollUntil } from '../../shared/node/testing/poll-until'
import type { Events } from '../../shared/contract'
import type { SshPrompt, TerminalStatus } from '../../shared/contract-ssh'
import type { Emulator } from '../../emulator/index'
import type { AppCore } from '../core-types'
import { createRequest } from '../testing/core-harness'
import { startSandboxCore, type SandboxCore } from '../testing/sandbox-core'

describe.skipIf(skipBecause(posixShellMissing(), 'SSH against the emulator’s shell'))('SSH against the emulator’s SSH server', () => {
  let sandbox: SandboxCore
  let core: AppCore
  let emulator: Emulator
  let sent: SandboxCore['sent']
  const client = { clientId: 'window-1' }

  // Signed in to the Sandbox the way the sign-in form is (its password is made per install).
  beforeAll(async () => {
    sandbox = await startSandboxCore({})
    ;({ core, emulator, sent } = sandbox)
  })

  afterAll(() => sandbox?.close())

  const until = <T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> =>
    pollUntil(what, probe, { timeoutMs: 15_000 })

  it('opens a shell on a Running Sandbox instance with the Sandbox key and echoes', async () => {
    const session = await core.handle('session.get', undefined, client)
    expect(session.ok && session.value.status).toBe('signed-in')
    const created = await core.handle('instances.create', { request: createRequest(emulator, 'ssh-emu') }, client)
    if (!created.ok) throw new Error(created.error.message)
    const instanceId = created.value.instanceId
    await until('Running', async () => {
      const snapshot = await core.handle('instances.refresh', undefined, client)
      return (
        snapshot.ok &&
        snapshot.value.instances.some((i) => i.instanceMetadata.instanceId === instanceId && i.instanceRuntimeInfo.status === 'Running')
      )
    })

    const command = await core.handle('ssh.command', { instanceId }, client)
    expect(command.ok && command.value.command).toMatch(/^ssh -p \d+ \S+@127\.0\.0\.1$/)

    const opened = await core.handle('ssh.open', { instanceId, cols: 100, rows: 30 }, client)
    if (!opened.ok) throw new Error(opened.error.message)
    const { terminalId } = opened.value
    const prompt = await until('host-key prompt', () => sent.find((item) => item.event === 'ssh.prompt')?.payload as SshPrompt | undefined)
    expect(prompt.kind).toBe('host-key')
    const answered = await core.handle(
      'ssh.answer',
      { promptId: prompt.promptId, answer: { kind: 'host-key', decision: 'accept-and-remember' } },
      client
    )
    expect(answered.ok).toBe(true)
    await until('connected', () =>
      sent.some(
        (item) =>
          item.event === 'ssh.status' &&
          (item.payload as TerminalStatus).state === 'connected' &&
          (item.payload as TerminalStatus).terminalId === terminalId
      )
    )

    const output = (): string =>
      sent
        .filter((item) => item.event === 'ssh.data')
        .map((item) => Buffer.from((item.payload as Events['ssh.data']).data).toString('utf8'))
        .join('')
    const ackAll = async (): Promise<void> => {
      // Acknowledge like a renderer would, so flow control never holds the shell back.
      const bytes = sent
        .filter((item) => item.event === 'ssh.data')
        .reduce((sum, item) => sum + (item.payload as Events['ssh.data']).data.length, 0)
      if (bytes > acked) core.notice('ssh.ack', { terminalId, bytes: bytes - acked }, client)
      acked = Math.max(acked, bytes)
    }
    let acked = 0
    core.notice('ssh.input', { terminalId, data: 'echo $((6*7))\n' }, client)
    await until('42', async () => {
      await ackAll()
      return /(^|[^0-9*(])42\r?\n/.test(output()) || undefined
    })
    expect(sent.filter((item) => item.event.startsWith('ssh.')).every((item) => item.target === 'window-1')).toBe(true)

    const closed = await core.handle('ssh.close', { terminalId }, client)
    expect(closed.ok).toBe(true)
  })
})
