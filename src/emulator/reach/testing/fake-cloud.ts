/** Shared by the reach tests: a fake ReachContext, free ports, and waiting for output. */
import { mkdtemp } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import ssh2, { type ParsedKey } from 'ssh2'
import { generateEd25519PrivateKey } from '../host-key'
import { ManualClock } from '../../../shared/clock'
import type { EmuInstanceView, ReachContext } from '../../reach-types'
import { createReach, type EmulatorReach } from '../create-reach'

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (typeof address !== 'object' || address === null) throw new Error('no port')
  return address.port
}

export interface FakeCloud {
  context: ReachContext
  instances: Map<string, EmuInstanceView>
  keys: Map<string, string[]>
  /** token → username */
  tokens: Map<string, string>
  lines: string[]
}

export function fakeCloud(stateDir?: string): FakeCloud {
  const instances = new Map<string, EmuInstanceView>()
  const keys = new Map<string, string[]>()
  const tokens = new Map<string, string>()
  const lines: string[] = []
  const context: ReachContext = {
    clock: new ManualClock(Date.UTC(2026, 10, 23)),
    ...(stateDir ? { stateDir } : {}),
    verifyToken: (token) => {
      const username = tokens.get(token)
      return username ? { username } : undefined
    },
    instance: (id) => instances.get(id),
    sshKeysFor: (username) => keys.get(username) ?? [],
    log: (line) => lines.push(line)
  }
  return { context, instances, keys, tokens, lines }
}

/** A reach on a fake cloud that keeps its state in a fresh temp folder named from `prefix`, knowing `keys` (user → public keys). */
export async function reachInTempState(
  prefix: string,
  keys: Record<string, string[]>
): Promise<{ stateDir: string; cloud: FakeCloud; reach: EmulatorReach }> {
  const stateDir = await mkdtemp(join(tmpdir(), prefix))
  const cloud = fakeCloud(stateDir)
  for (const [user, publicKeys] of Object.entries(keys)) cloud.keys.set(user, publicKeys)
  return { stateDir, cloud, reach: await createReach()(cloud.context) }
}

/** Runs `instanceId` of `owner` on `reach` (Linux user root, notebook at /nb/<id>/), each instance port on the loopback node port given. */
export async function runInstance(
  cloud: FakeCloud,
  reach: EmulatorReach,
  instanceId: string,
  owner: string,
  nodePorts: Record<number, number>
): Promise<EmuInstanceView> {
  const view: EmuInstanceView = {
    instanceId,
    owner,
    instanceUsername: 'root',
    subUrl: `/nb/${instanceId}/`,
    nodePorts: Object.entries(nodePorts).map(([port, nodePort]) => ({ port: Number(port), address: '127.0.0.1', nodePort }))
  }
  cloud.instances.set(instanceId, view)
  await reach.instanceRunning(view)
  return view
}

export function userKey(): { privateKey: string; publicKey: string } {
  const privateKey = generateEd25519PrivateKey('test-user')
  const parsed = ssh2.utils.parseKey(privateKey) as ParsedKey
  return { privateKey, publicKey: `${parsed.type} ${parsed.getPublicSSH().toString('base64')}` }
}

/** Resolves with everything read so far once `pattern` shows up in the stream's text. */
export function waitForText(stream: Readable, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8')
      if (pattern.test(text)) {
        stream.off('data', onData)
        resolve(text)
      }
    }
    stream.on('data', onData)
    stream.once('close', () => reject(new Error(`stream closed before ${pattern}; got ${JSON.stringify(text)}`)))
  })
}

/** An ssh2 client to one of reach's SSH servers, its host key checked against the one reach publishes (never accept-all). */
export function connectToInstance(
  reach: EmulatorReach,
  port: number,
  options: { privateKey: string; username?: string }
): Promise<ssh2.Client> {
  const expected = reach.sshHostPublicKey!.split(' ')[1]
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client()
    client
      .once('ready', () => resolve(client))
      .once('error', reject)
      .connect({
        host: '127.0.0.1',
        port,
        username: options.username ?? 'root',
        privateKey: options.privateKey,
        hostVerifier: (key: Buffer) => key.toString('base64') === expected
      })
  })
}
