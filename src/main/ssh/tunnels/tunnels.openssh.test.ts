/**
 * Port tunnels against Debian's OpenSSH (direct-tcpip, as `ssh -L`): an HTTP request and a
 * 64 MiB body each way arrive intact with the counters moving; the listener outlives an sshd
 * restart (a request made during the outage waits and completes after the reconnect); a taken
 * local port is refused with another offered; sign-out closes everything and sign-in brings the
 * remembered tunnel back on the same port.
 */
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { InstancesSnapshot } from '../../../shared/contract'
import { KnownHostsStore } from '../host-keys/known-hosts-store'
import { opensshAvailable } from '../testing/openssh-server'
import { useOpenSshServer } from '../testing/use-openssh-server'
import { httpRequest, httpText, patternStream, postPattern, sha256Of, startHttpTarget, type HttpTarget } from '../testing/http-target'
import { splitClock } from '../testing/split-clock'
import { sshdInstance, sshdLinks } from '../testing/sshd-links'
import { TunnelManager } from './tunnel-manager'
import { TunnelStore } from './tunnel-store'
import type { TunnelInfo } from '../../../shared/contract-tunnels'
import { recordedProblems } from '../../testing/save-problems'

const MiB = 1024 * 1024

describe.skipIf(!opensshAvailable())('tunnels against OpenSSH', () => {
  const sshd = useOpenSshServer('cloudtray-tunnels-')
  const cleanups: (() => void)[] = []
  let app: HttpTarget
  beforeAll(async () => {
    app = await startHttpTarget()
  })
  sshd.onEnd(async () => {
    for (const cleanup of cleanups) cleanup()
    await app?.close()
  })

  let counter = 0
  async function setup(dataDir = join(sshd.scratch, `data-${++counter}`), status = 'Running') {
    mkdirSync(dataDir, { recursive: true })
    const { clock, manual } = splitClock()
    const instance = sshdInstance(sshd.server)
    instance.instanceRuntimeInfo.status = status
    const knownHosts = new KnownHostsStore(join(dataDir, 'known_hosts'), undefined)
    const { keyType, keyBase64 } = sshd.server.hostPublicKey()
    await knownHosts.remember('127.0.0.1', sshd.server.port, { keyType, keyBase64 })
    const links = sshdLinks(sshd.server, { clock, knownHosts, homeDir: dataDir })
    const opened: string[] = []
    const published: TunnelInfo[][] = []
    const tunnels = new TunnelManager({
      links,
      clock,
      store: new TunnelStore(dataDir, recordedProblems().problems),
      findInstance: () => instance,
      publish: (list) => void published.push(list),
      openUrl: async (url) => void opened.push(url)
    })
    cleanups.push(
      () => tunnels.dispose(),
      () => links.dispose()
    )
    await tunnels.signedIn('profile-1')
    const snapshot: InstancesSnapshot = { instances: [instance], fetchedAt: Date.now(), mode: 'steady' }
    const stateOf = (tunnelId: string) => tunnels.list().find((tunnel) => tunnel.tunnelId === tunnelId)
    const until = async (what: string, check: () => boolean): Promise<void> => {
      const deadline = Date.now() + 10_000
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(tunnels.list())}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    return { tunnels, links, manual, opened, published, snapshot, until, stateOf, dataDir }
  }

  it('a stopped instance’s tunnel says it will not run again, and its line follows the status (#24)', async () => {
    const { tunnels, until, stateOf, snapshot, published } = await setup()
    const instance = snapshot.instances[0]!
    const tunnel = await tunnels.start({ instanceId: 'i-1', remotePort: app.port }, 'window-1')
    await until('open', () => stateOf(tunnel.tunnelId)?.state === 'open')

    instance.instanceRuntimeInfo.status = 'Stopped'
    await tunnels.instances(snapshot)
    const ended = stateOf(tunnel.tunnelId)!
    expect(ended.state).toBe('ended')
    expect(ended.message).toMatch(/is stopped and will not run again \(the cloud has no call to start an instance\).*Remove it/)
    await expect(httpText(tunnel.localPort)).rejects.toThrow(/ECONNREFUSED/)
    await until('told', () => published.at(-1)?.find((entry) => entry.tunnelId === tunnel.tunnelId)?.state === 'ended')
    // Removing it forgets it.
    await tunnels.stop(tunnel.tunnelId)
    expect(tunnels.list()).toEqual([])
  })

  it('a tunnel waiting for a start says where the start is now, and the windows hear each change (#24)', async () => {
    const { tunnels, until, stateOf, dataDir } = await setup()
    const tunnel = await tunnels.start({ instanceId: 'i-1', remotePort: app.port }, 'window-1')
    await until('open', () => stateOf(tunnel.tunnelId)?.state === 'open')
    tunnels.signedOut()
    // Signed in again while the instance is still on its way up: waiting, its line following the status.
    const later = await setup(dataDir, 'Initializing')
    later.snapshot.instances[0]!.instanceRuntimeInfo.status = 'Initializing'
    await later.tunnels.instances(later.snapshot)
    expect(later.stateOf(tunnel.tunnelId)).toMatchObject({ state: 'waiting', message: 'waiting for test-box to run (now preparing)' })
    later.snapshot.instances[0]!.instanceRuntimeInfo.status = 'PullingImage'
    await later.tunnels.instances(later.snapshot)
    expect(later.stateOf(tunnel.tunnelId)?.message).toBe('waiting for test-box to run (now downloading image)')
    await later.until('told', () => later.published.at(-1)?.[0]?.message === 'waiting for test-box to run (now downloading image)')
    later.tunnels.signedOut()
  })

  it('carries an HTTP request and a 64 MiB body each way intact, counting connections and bytes', async () => {
    const { tunnels, until, stateOf, opened } = await setup()
    const tunnel = await tunnels.start({ instanceId: 'i-1', remotePort: app.port }, 'window-1')
    expect(tunnel).toMatchObject({
      remotePort: app.port,
      localAddress: `127.0.0.1:${tunnel.localPort}`,
      url: `http://127.0.0.1:${tunnel.localPort}/`
    })
    await until('open', () => stateOf(tunnel.tunnelId)?.state === 'open')
    expect(await httpText(tunnel.localPort)).toBe('hello from inside the instance\n')

    const download = await httpRequest(tunnel.localPort, 'GET', `/bytes/${64 * MiB}`)
    expect(stateOf(tunnel.tunnelId)?.connections).toBe(1)
    expect(await sha256Of(download)).toEqual(await sha256Of(patternStream(64 * MiB)))
    const { received, sent } = await postPattern(tunnel.localPort, 64 * MiB)
    expect(received).toEqual(sent)

    const counted = stateOf(tunnel.tunnelId)!
    expect(counted.bytesIn).toBeGreaterThan(64 * MiB)
    expect(counted.bytesOut).toBeGreaterThan(64 * MiB)
    await until('connections closed', () => stateOf(tunnel.tunnelId)?.connections === 0)

    await tunnels.open(tunnel.tunnelId)
    expect(opened).toEqual([`http://127.0.0.1:${tunnel.localPort}/`])
    // The same port again answers the same tunnel.
    expect((await tunnels.start({ instanceId: 'i-1', remotePort: app.port }, 'window-1')).tunnelId).toBe(tunnel.tunnelId)
  })

  it('keeps listening through an sshd restart: a request made during the outage completes after the reconnect', async () => {
    const { tunnels, links, manual, until, stateOf } = await setup()
    const tunnel = await tunnels.start({ instanceId: 'i-1', remotePort: app.port }, undefined)
    await until('open', () => stateOf(tunnel.tunnelId)?.state === 'open')
    const before = links.connectionOf('i-1')!

    await sshd.server.stop()
    await until('reconnecting', () => stateOf(tunnel.tunnelId)?.state === 'reconnecting')
    expect(stateOf(tunnel.tunnelId)?.message).toMatch(/^connection lost — reconnecting in 1 s/)
    const waiting = httpText(tunnel.localPort)
    await until('the request held', () => stateOf(tunnel.tunnelId)?.connections === 1)

    await sshd.server.start()
    manual.advance(1_000)
    await until('open again', () => stateOf(tunnel.tunnelId)?.state === 'open')
    expect(links.connectionOf('i-1')).not.toBe(before)
    expect(await waiting).toBe('hello from inside the instance\n')
    expect(await httpText(tunnel.localPort)).toBe('hello from inside the instance\n')
  })

  it('refuses a local port in use, offering a free one, and forwards on the one offered', async () => {
    const { tunnels, until, stateOf } = await setup()
    const squatter = createServer()
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve))
    const taken = (squatter.address() as { port: number }).port
    try {
      const check = await tunnels.checkPort(taken)
      expect(check.free).toBe(false)
      expect(check.suggestion).not.toBe(taken)
      await expect(tunnels.start({ instanceId: 'i-1', remotePort: app.port, localPort: taken }, 'window-1')).rejects.toMatchObject({
        kind: 'not-allowed',
        field: 'localPort',
        message: expect.stringMatching(
          new RegExp(`^Port ${taken} on this computer is already in use by another program\\. Use \\d+ instead`)
        )
      })
      expect(tunnels.list()).toEqual([])
      const tunnel = await tunnels.start({ instanceId: 'i-1', remotePort: app.port, localPort: check.suggestion }, 'window-1')
      expect(tunnel.localPort).toBe(check.suggestion)
      await until('open', () => stateOf(tunnel.tunnelId)?.state === 'open')
      expect(await httpText(tunnel.localPort)).toBe('hello from inside the instance\n')
    } finally {
      squatter.close()
    }
  })

  it('closes everything on sign-out and brings the remembered tunnel back on the same port after sign-in', async () => {
    const { tunnels, links, until, stateOf, snapshot, dataDir } = await setup()
    const tunnel = await tunnels.start({ instanceId: 'i-1', remotePort: app.port }, 'window-1')
    await until('open', () => stateOf(tunnel.tunnelId)?.state === 'open')
    const connection = links.connectionOf('i-1')!

    tunnels.signedOut()
    expect(tunnels.list()).toEqual([])
    await connection.closed
    await expect(httpText(tunnel.localPort)).rejects.toThrow(/ECONNREFUSED/)

    // Sign in again: the list already says the instance runs, so it is back on its port at once.
    await tunnels.signedIn('profile-1')
    expect(tunnels.list()).toMatchObject([{ tunnelId: tunnel.tunnelId, localPort: tunnel.localPort }])
    await until('open again', () => stateOf(tunnel.tunnelId)?.state === 'open')
    await tunnels.instances(snapshot)
    expect(stateOf(tunnel.tunnelId)?.localPort).toBe(tunnel.localPort)
    expect(await httpText(tunnel.localPort)).toBe('hello from inside the instance\n')

    // Another app run on the same data folder remembers it too, waiting while its instance is
    // stopped (and back when the list says it runs); stopping forgets it.
    const again = await setup(dataDir, 'Stopped')
    expect(again.tunnels.list()).toMatchObject([{ tunnelId: tunnel.tunnelId, state: 'waiting' }])
    // Running again, but its remembered port is taken (by the first run): another one, and a note.
    again.snapshot.instances[0]!.instanceRuntimeInfo.status = 'Running'
    await again.tunnels.instances(again.snapshot)
    await again.until('open on another port', () => again.stateOf(tunnel.tunnelId)?.state === 'open')
    const moved = again.stateOf(tunnel.tunnelId)!
    expect(moved.localPort).not.toBe(tunnel.localPort)
    expect(moved.note).toBe(`Port ${tunnel.localPort} on this computer was in use, so this tunnel listens on ${moved.localPort} instead.`)
    expect(await httpText(moved.localPort)).toBe('hello from inside the instance\n')
    again.tunnels.signedOut()
    await tunnels.stop(tunnel.tunnelId)
    await expect(httpText(tunnel.localPort)).rejects.toThrow(/ECONNREFUSED/)
    const third = await setup(dataDir)
    expect(third.tunnels.list()).toEqual([])
  })
})
