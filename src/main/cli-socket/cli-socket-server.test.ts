/**
 * The command line's socket, against a recording core and raw clients: the proof every client
 * gives (and the app's proof back), what a client hears (its own events, and the broadcasts it
 * subscribed to), the place's checks at start and on every connection, a crashed app's socket
 * replaced and a live one left alone.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createConnection, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventName, Events } from '../../shared/contract'
import { FrameReader, frameOf } from '../../shared/node/cli-socket/frames'
import { cliSocketPlace, type CliSocketPlace } from '../../shared/node/cli-socket/place'
import { CLI_PROTOCOL_VERSION, proofFileName } from '../../shared/node/cli-socket/protocol'
import { decodeFrame, encodeFrame } from '../../shared/web/ws-protocol'
import type { ClientId, EventSink } from '../core-types'
import { CliPlaceError, startCliSocket, type CliSocketOptions, type CliSocketServer } from './cli-socket-server'

const folders: string[] = []
const servers: CliSocketServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function place(): CliSocketPlace {
  const dir = mkdtempSync(join(tmpdir(), 'ct-sock-'))
  folders.push(dir)
  return cliSocketPlace({ platform: process.platform, env: { CLOUD_TRAY_RUNTIME_DIR: dir }, home: tmpdir() })
}

function recordingCore() {
  const sinks = new Set<EventSink>()
  const handled: { command: string; input: unknown; clientId: ClientId }[] = []
  const notices: { notice: string; input: unknown; clientId: ClientId }[] = []
  const gone: ClientId[] = []
  const core: CliSocketOptions['core'] = {
    async handle(command, input, { clientId }) {
      handled.push({ command, input, clientId })
      return { ok: true, value: { echo: input, clientId } } as never
    },
    notice(notice, input, { clientId }) {
      notices.push({ notice, input, clientId })
    },
    subscribe(sink) {
      sinks.add(sink)
      return () => sinks.delete(sink)
    },
    clientGone: (clientId) => void gone.push(clientId)
  }
  const emit = <E extends EventName>(event: E, payload: Events[E], target?: ClientId): void => {
    for (const sink of sinks) sink(event, payload, target)
  }
  return { core, handled, notices, gone, emit }
}

async function serve(at: CliSocketPlace, core = recordingCore().core, extra: Partial<CliSocketOptions> = {}): Promise<CliSocketServer> {
  const server = await startCliSocket({ core, version: '9.9.9', place: at, ...extra })
  if (!server) throw new Error('expected the socket to be served')
  servers.push(server)
  return server
}

/** A client speaking the protocol by hand: every message it received, in order. */
class RawClient {
  readonly messages: Record<string, unknown>[] = []
  readonly socket: Socket
  closed = false
  private wake: (() => void) | undefined

  constructor(path: string) {
    this.socket = createConnection(path)
    const reader = new FrameReader(64 * 1024 * 1024, (frame) => {
      this.messages.push(decodeFrame(frame) as Record<string, unknown>)
      this.wake?.()
    })
    this.socket.on('data', (chunk: Buffer) => reader.push(chunk))
    this.socket.on('error', () => undefined)
    this.socket.on('close', () => {
      this.closed = true
      this.wake?.()
    })
  }

  send(message: unknown): void {
    for (const part of frameOf(encodeFrame(message))) this.socket.write(part)
  }

  async next(t: string): Promise<Record<string, unknown>> {
    for (;;) {
      const found = this.messages.find((message) => message['t'] === t)
      if (found) return found
      if (this.closed) throw new Error(`closed before a ${t}; got ${JSON.stringify(this.messages)}`)
      await new Promise<void>((resolve) => (this.wake = resolve))
    }
  }

  async until(check: () => boolean): Promise<void> {
    while (!check() && !this.closed) await new Promise<void>((resolve) => (this.wake = resolve))
  }

  /** The proof as cloud-tray gives it; answers the hello. */
  async prove(dir: string, value = randomBytes(32).toString('hex')): Promise<Record<string, unknown>> {
    const challenge = await this.next('challenge')
    writeFileSync(join(dir, proofFileName(String(challenge['nonce']))), value, { mode: 0o600 })
    this.send({ t: 'proof', v: CLI_PROTOCOL_VERSION })
    return this.next('hello')
  }
}

describe('the command line socket', () => {
  it('is 0600 in a 0700 folder, proves each client and is proved to it, then carries commands and notices to the core', async () => {
    const at = place()
    const { core, handled, notices, gone } = recordingCore()
    const server = await serve(at, core)
    expect(statSync(at.dir).mode & 0o777).toBe(0o700)
    expect(statSync(at.path).mode & 0o777).toBe(0o600)

    const client = new RawClient(at.path)
    const challenge = await client.next('challenge')
    expect(challenge).toMatchObject({ v: CLI_PROTOCOL_VERSION, app: '9.9.9', nonce: expect.stringMatching(/^[0-9a-f]{32}$/) })
    const value = randomBytes(32).toString('hex')
    writeFileSync(join(at.dir, proofFileName(String(challenge['nonce']))), value, { mode: 0o600 })
    client.send({ t: 'proof', v: CLI_PROTOCOL_VERSION })
    // The app read the value back (only the user can read the folder), and removed the file.
    expect(await client.next('hello')).toEqual({ t: 'hello', clientId: 'cli-1', proof: value })
    expect(existsSync(join(at.dir, proofFileName(String(challenge['nonce']))))).toBe(false)

    client.send({ t: 'invoke', id: 1, command: 'instances.get' })
    client.send({ t: 'invoke', id: 2, command: 'templates.list', input: { x: 1 } })
    client.send({ t: 'notice', notice: 'ssh.input', input: { terminalId: 't', data: new Uint8Array([0, 255]) } })
    await client.until(() => client.messages.filter((m) => m['t'] === 'result').length === 2)
    expect(client.messages.filter((m) => m['t'] === 'result')).toEqual([
      { t: 'result', id: 1, result: { ok: true, value: { clientId: 'cli-1' } } },
      { t: 'result', id: 2, result: { ok: true, value: { echo: { x: 1 }, clientId: 'cli-1' } } }
    ])
    // Every name goes to the core, which answers one the contract does not know (the dispatcher does).
    expect(handled.map((each) => each.command)).toEqual(['instances.get', 'templates.list'])
    expect(notices).toEqual([{ notice: 'ssh.input', input: { terminalId: 't', data: new Uint8Array([0, 255]) }, clientId: 'cli-1' }])

    client.socket.end()
    await client.until(() => false)
    await new Promise((resolve) => setImmediate(resolve))
    expect(gone).toEqual(['cli-1'])
    expect(server.clientCount).toBe(0)
  })

  it('sends a client the events addressed to it, and only the broadcasts it subscribed to', async () => {
    const at = place()
    const { core, emit } = recordingCore()
    const server = await serve(at, core)
    const one = new RawClient(at.path)
    const two = new RawClient(at.path)
    await one.prove(at.dir)
    await two.prove(at.dir)
    one.send({ t: 'subscribe', events: ['transitions'] })
    // The subscription is taken before a later command of the same client is answered.
    one.send({ t: 'invoke', id: 1, command: 'session.get' })
    await one.next('result')
    expect(server.subscribers('transitions')).toBe(1)
    emit('transitions', [{ instanceId: 'i', name: 'box', from: 'Starting', to: 'Running' }])
    emit('instances', { instances: [], fetchedAt: 1, mode: 'steady' })
    emit('ssh.data', { terminalId: 't', data: new Uint8Array([1, 2, 3]) }, 'cli-2')
    emit('ssh.data', { terminalId: 't', data: new Uint8Array([9]) }, 'ws-1')
    await one.until(() => one.messages.some((m) => m['t'] === 'event'))
    await two.until(() => two.messages.some((m) => m['t'] === 'event'))
    expect(one.messages.filter((m) => m['t'] === 'event').map((m) => m['event'])).toEqual(['transitions'])
    expect(two.messages.filter((m) => m['t'] === 'event')).toEqual([
      { t: 'event', event: 'ssh.data', payload: { terminalId: 't', data: new Uint8Array([1, 2, 3]) } }
    ])
  })

  it('drops a client that speaks before proving itself, or whose proof is missing', async () => {
    const at = place()
    const { core, handled } = recordingCore()
    await serve(at, core)
    const eager = new RawClient(at.path)
    await eager.next('challenge')
    eager.send({ t: 'invoke', id: 1, command: 'instances.get' })
    await eager.until(() => false)
    expect(eager.closed).toBe(true)

    const liar = new RawClient(at.path)
    await liar.next('challenge')
    liar.send({ t: 'proof', v: CLI_PROTOCOL_VERSION })
    expect((await liar.next('refused'))['message']).toMatch(
      /could not check that this command runs as your user \(no proof file was made\)/
    )
    expect(handled).toEqual([])
  })

  it('refuses a client of another protocol version, saying which command line to use', async () => {
    const at = place()
    await serve(at)
    const old = new RawClient(at.path)
    await old.next('challenge')
    old.send({ t: 'proof', v: 0 })
    expect((await old.next('refused'))['message']).toMatch(
      /speaks version 0 of the app's protocol and the app 1: use the command line that came with this Cloud Tray \(9\.9\.9\)/
    )
  })

  it('will not start in a folder open to other users, someone else’s, or through a link', async () => {
    const at = place()
    chmodSync(at.dir, 0o755)
    await expect(startCliSocket({ core: recordingCore().core, version: '1', place: at })).rejects.toThrow(CliPlaceError)
    await expect(startCliSocket({ core: recordingCore().core, version: '1', place: at })).rejects.toThrow(
      /is open to other users \(mode 0755\); it must be 0700/
    )
    expect(existsSync(at.path)).toBe(false)
    chmodSync(at.dir, 0o700)

    const base = place()
    const { symlinkSync } = await import('node:fs')
    const linked = join(base.dir, 'linked')
    symlinkSync(at.dir, linked)
    const viaLink = cliSocketPlace({ platform: process.platform, env: { CLOUD_TRAY_RUNTIME_DIR: linked }, home: tmpdir() })
    await expect(startCliSocket({ core: recordingCore().core, version: '1', place: viaLink })).rejects.toThrow(/is a link/)
  })

  it('refuses every connection once its folder or socket is opened up after the start', async () => {
    const at = place()
    const { core, handled } = recordingCore()
    await serve(at, core)
    chmodSync(at.path, 0o666)
    const client = new RawClient(at.path)
    expect((await client.next('refused'))['message']).toMatch(/cli\.sock is open to other users \(mode 0666\); it must be 0600\./)
    chmodSync(at.path, 0o600)
    chmodSync(at.dir, 0o711)
    const again = new RawClient(at.path)
    expect((await again.next('refused'))['message']).toMatch(/is open to other users \(mode 0711\)/)
    expect(handled).toEqual([])
  })

  it('replaces a socket left by an app that crashed, and leaves a live one and anything else alone', async () => {
    const at = place()
    // Another process listens there and is killed: its socket file stays behind.
    const crashed = spawn(
      process.execPath,
      ['-e', `require('node:net').createServer().listen(${JSON.stringify(at.path)}, () => console.log('up'))`],
      {
        stdio: ['ignore', 'pipe', 'inherit']
      }
    )
    await new Promise<void>((resolve) => crashed.stdout.once('data', () => resolve()))
    crashed.kill('SIGKILL')
    await new Promise((resolve) => crashed.once('exit', resolve))
    expect(statSync(at.path).isSocket()).toBe(true)
    const server = await serve(at)
    const client = new RawClient(at.path)
    expect((await client.prove(at.dir))['clientId']).toBe('cli-1')
    await server.close()
    expect(existsSync(at.path)).toBe(false)

    // A live socket (another Cloud Tray serving): not taken over.
    const live = createServer()
    await new Promise<void>((resolve) => live.listen(at.path, resolve))
    try {
      expect(await startCliSocket({ core: recordingCore().core, version: '1', place: at })).toBeUndefined()
      expect(statSync(at.path).isSocket()).toBe(true)
    } finally {
      await new Promise((resolve) => live.close(resolve))
    }

    // Not a socket: never removed.
    writeFileSync(at.path, 'mine')
    await expect(startCliSocket({ core: recordingCore().core, version: '1', place: at })).rejects.toThrow(
      /is not a socket; Cloud Tray leaves it alone/
    )
    expect(readFileSync(at.path, 'utf8')).toBe('mine')
  })

  it('disconnects a client too slow to take what it is sent', async () => {
    const at = place()
    const { core, emit } = recordingCore()
    const server = await serve(at, core, { maxBufferedBytes: 256 * 1024 })
    const slow = new RawClient(at.path)
    await slow.prove(at.dir)
    slow.socket.pause()
    const big = new Uint8Array(512 * 1024)
    for (let i = 0; i < 64 && server.clientCount > 0; i++) {
      emit('ssh.data', { terminalId: 't', data: big }, 'cli-1')
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(server.clientCount).toBe(0)
  })
})

describe('the folder rule at a non-default place', () => {
  it('makes a missing folder 0700', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'ct-parent-'))
    folders.push(parent)
    const dir = join(parent, 'deeper', 'run')
    const at = cliSocketPlace({ platform: process.platform, env: { CLOUD_TRAY_RUNTIME_DIR: dir }, home: tmpdir() })
    await serve(at)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
  })
})
