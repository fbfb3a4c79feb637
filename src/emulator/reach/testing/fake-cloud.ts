/** Shared by the reach tests: a fake ReachContext, free ports, and waiting for output. */
import { createServer } from 'node:net'
import type { Readable } from 'node:stream'
import ssh2, { type ParsedKey } from 'ssh2'
import { generateEd25519PrivateKey } from '../host-key'
import { ManualClock } from '../../../shared/clock'
import type { EmuInstanceView, ReachContext } from '../../reach-types'
import type { EmulatorReach } from '../create-reach'

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

/** `inst-1` of `alice` (root login, SSH on a free port) running on `reach`; answers its SSH port. */
export async function runAliceInstance(cloud: FakeCloud, reach: EmulatorReach): Promise<number> {
  const sshPort = await freePort()
  const view = {
    instanceId: 'inst-1',
    owner: 'alice',
    instanceUsername: 'root',
    subUrl: '/nb/inst-1/',
    nodePorts: [{ port: 22, address: '127.0.0.1', nodePort: sshPort }]
  }
  cloud.instances.set('inst-1', view)
  await reach.instanceRunning(view)
  return sshPort
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
