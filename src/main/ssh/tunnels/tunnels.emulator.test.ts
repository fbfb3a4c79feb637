/**
 * Tunnels through the whole core against the emulator's own SSH server (Sandbox with reach):
 * forwarding Jupyter's port from the tray before the host key is trusted fails with that reason
 * (the tray cannot ask), and comes up by itself once a terminal accepted the key; the tunnel
 * shows the instance's own Jupyter page and carries a 64 MiB body each way; it survives the
 * instance's SSH server restarting; and it is gone after sign-out.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SshPrompt } from '../../../shared/contract-ssh'
import type { TunnelInfo } from '../../../shared/contract-tunnels'
import { pollUntil } from '../../../shared/node/testing/poll-until'
import { startSandboxCore, type SandboxCore } from '../../testing/sandbox-core'
import { httpRequest, httpText, patternStream, postPattern, sha256Of, startHttpTarget, type HttpTarget } from '../testing/http-target'

const MiB = 1024 * 1024

describe('tunnels against the emulator’s SSH server, through the core', () => {
  let sandbox: SandboxCore
  let app: HttpTarget
  let instanceId: string
  let call: SandboxCore['call']
  let emulator: SandboxCore['emulator']
  let platform: SandboxCore['platform']
  let sent: SandboxCore['sent']

  beforeAll(async () => {
    app = await startHttpTarget()
    sandbox = await startSandboxCore({ instanceName: 'tunnel-box' })
    ;({ instanceId, call, emulator, platform, sent } = sandbox)
  })

  afterAll(async () => {
    await sandbox?.close()
    await app?.close()
  })

  const until = <T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> =>
    pollUntil(what, probe, { explain: async () => `tunnels: ${JSON.stringify(await call('tunnels.list'))}` })

  const tunnelOf = async (remotePort: number): Promise<TunnelInfo | undefined> =>
    (await call('tunnels.list')).find((tunnel) => tunnel.instanceId === instanceId && tunnel.remotePort === remotePort)

  it('forwards Jupyter from the tray: refused until the host key is trusted, then the instance’s page', async () => {
    // The menu as main last handed it to the tray.
    const tray = platform.trays.at(-1)!
    const submenu = tray.items.find((item) => item.id === `instance:${instanceId}`)!.submenu!
    const forward = submenu.find((item) => item.id === `instance:${instanceId}:forward`)!
    expect(forward.submenu!.map((item) => item.label)).toEqual([
      'Jupyter (8888)',
      'TensorBoard (6006)',
      'vLLM / OpenAI API (8000)',
      'Gradio (7860)',
      'Streamlit (8501)',
      '',
      'Other port…'
    ])
    // The Electron tray runs items as main: nobody there can answer a host-key question.
    await call('tray.activate', { itemId: `instance:${instanceId}:forward:8888` }, 'main')
    const failed = await until('failed', async () => ((await tunnelOf(8888))?.state === 'failed' ? tunnelOf(8888) : undefined))
    expect(failed!.message).toMatch(/is not trusted yet\. Open a terminal to the instance once to check and accept it\./)
    expect(sent.filter((item) => item.event === 'ssh.prompt')).toEqual([])

    // A terminal asks the window; once accepted, the waiting tunnel comes up by itself.
    const { terminalId } = await call('ssh.open', { instanceId, cols: 80, rows: 24 })
    const prompt = await until('host-key prompt', () => sent.find((item) => item.event === 'ssh.prompt')?.payload as SshPrompt | undefined)
    await call('ssh.answer', { promptId: prompt.promptId, answer: { kind: 'host-key', decision: 'accept-and-remember' } })
    const open = await until('open', async () => ((await tunnelOf(8888))?.state === 'open' ? tunnelOf(8888) : undefined))
    const page = await httpText(open!.localPort)
    expect(page).toContain(`<h1>Jupyter on ${instanceId}</h1>`)

    // The tray lists it with open / copy / stop; "open" goes to the system browser.
    const listed = platform.trays.at(-1)!.items.find((item) => item.id === `instance:${instanceId}`)!.submenu!
    const entry = listed.find((item) => item.id === `instance:${instanceId}:tunnel:${open!.tunnelId}`)!
    expect(entry.label).toBe(`${open!.localAddress} → Jupyter (8888)`)
    await call('tray.activate', { itemId: `instance:${instanceId}:tunnel:${open!.tunnelId}:open` }, 'main')
    expect(platform.external.at(-1)).toBe(`http://${open!.localAddress}/`)
    await call('tray.activate', { itemId: `instance:${instanceId}:tunnel:${open!.tunnelId}:copy` }, 'main')
    expect(platform.clipboard.at(-1)).toBe(open!.localAddress)
    await call('ssh.close', { terminalId })
  })

  it('carries a 64 MiB body each way to an app inside the instance', async () => {
    const tunnel = await call('tunnels.start', { instanceId, remotePort: app.port })
    await until('open', async () => (await tunnelOf(app.port))?.state === 'open')
    expect(await sha256Of(await httpRequest(tunnel.localPort, 'GET', `/bytes/${64 * MiB}`))).toEqual(
      await sha256Of(patternStream(64 * MiB))
    )
    const { received, sent: expected } = await postPattern(tunnel.localPort, 64 * MiB)
    expect(received).toEqual(expected)
    expect((await tunnelOf(app.port))!.bytesIn).toBeGreaterThan(64 * MiB)
  })

  it('survives the instance’s SSH server restarting', async () => {
    const jupyter = (await tunnelOf(8888))!
    emulator.control.setStatus(instanceId, 'Starting')
    await until('reconnecting', async () => (await tunnelOf(8888))?.state === 'reconnecting')
    emulator.control.setStatus(instanceId, 'Running')
    await until('open again', async () => (await tunnelOf(8888))?.state === 'open')
    expect((await tunnelOf(8888))!.localPort).toBe(jupyter.localPort)
    expect(await httpText(jupyter.localPort)).toContain(`<h1>Jupyter on ${instanceId}</h1>`)
  })

  it('is gone after sign-out, and comes back after signing in again', async () => {
    const jupyter = (await tunnelOf(8888))!
    await call('session.logout')
    expect(await call('tunnels.list')).toEqual([])
    await expect(httpText(jupyter.localPort)).rejects.toThrow(/ECONNREFUSED/)
    expect(sent.filter((item) => item.event === 'tunnels').at(-1)?.payload).toEqual([])

    await sandbox.signIn()
    await call('instances.refresh')
    await until('restored', async () => (await tunnelOf(8888))?.state === 'open')
    expect(await httpText(jupyter.localPort)).toContain(`<h1>Jupyter on ${instanceId}</h1>`)
  })

  it('closes every tunnel on Quit, remembered for the next start', async () => {
    const jupyter = (await tunnelOf(8888))!
    await sandbox.core.stop()
    await expect(httpText(jupyter.localPort)).rejects.toThrow(/ECONNREFUSED/)
    const remembered = JSON.parse(readFileSync(join(sandbox.dataDir, 'tunnels.json'), 'utf8')) as { tunnels: { remotePort: number }[] }
    expect(remembered.tunnels.map((entry) => entry.remotePort).sort()).toEqual([8888, app.port].sort())
  })
})
