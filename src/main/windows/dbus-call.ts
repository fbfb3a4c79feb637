/**
 * Just enough of the D-Bus wire protocol to ask the session bus one question (does anyone own
 * this name?), in plain Node: no native module and no helper program that a desktop may lack.
 * SASL EXTERNAL over the bus's Unix socket, Hello, then method calls whose arguments are strings
 * and unsigned integers, answered with a boolean or an integer. Little-endian, as every bus we
 * meet is.
 */
import { connect, type Socket } from 'node:net'

export interface BusConnection {
  call(message: {
    destination: string
    path: string
    interface: string
    member: string
    signature?: string
    args?: (string | number)[]
  }): Promise<number>
  close(): void
}

/** The socket of a D-Bus address (`unix:path=…` or `unix:abstract=…`); undefined for anything else. */
export function busSocketPath(address: string | undefined): string | undefined {
  for (const candidate of (address ?? '').split(';')) {
    const [transport, rest = ''] = candidate.split(/:(.*)/s)
    if (transport !== 'unix') continue
    const keys = Object.fromEntries(rest.split(',').map((pair) => pair.split('=') as [string, string]))
    if (keys['path']) return decodeURIComponent(keys['path'])
    if (keys['abstract']) return `\0${decodeURIComponent(keys['abstract'])}`
  }
  return undefined
}

const align = (buffer: number[], to: number): void => {
  while (buffer.length % to !== 0) buffer.push(0)
}
const u32 = (buffer: number[], value: number): void => {
  align(buffer, 4)
  buffer.push(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff)
}
const str = (buffer: number[], value: string): void => {
  const bytes = Buffer.from(value, 'utf8')
  u32(buffer, bytes.length)
  for (const byte of bytes) buffer.push(byte)
  buffer.push(0)
}
const sig = (buffer: number[], value: string): void => {
  buffer.push(value.length)
  for (const byte of Buffer.from(value, 'ascii')) buffer.push(byte)
  buffer.push(0)
}

/** A METHOD_CALL message, serial `serial`. */
export function methodCall(serial: number, m: Parameters<BusConnection['call']>[0]): Buffer {
  const signature = m.signature ?? ''
  const body: number[] = []
  ;(m.args ?? []).forEach((arg, index) => {
    if (signature[index] === 'u') u32(body, Number(arg))
    else str(body, String(arg))
  })
  const fields: number[] = []
  const field = (code: number, type: string, write: (b: number[]) => void): void => {
    align(fields, 8)
    fields.push(code)
    sig(fields, type)
    write(fields)
  }
  // Field offsets are counted from the message start: the fixed part is 16 bytes (a multiple of 8).
  field(1, 'o', (b) => str(b, m.path))
  field(2, 's', (b) => str(b, m.interface))
  field(3, 's', (b) => str(b, m.member))
  field(6, 's', (b) => str(b, m.destination))
  if (signature) field(8, 'g', (b) => sig(b, signature))
  const head: number[] = [0x6c, 1, 0, 1]
  u32(head, body.length)
  u32(head, serial)
  u32(head, fields.length)
  const message = [...head, ...fields]
  align(message, 8)
  return Buffer.from([...message, ...body])
}

interface Reply {
  type: number
  replySerial: number | undefined
  signature: string
  body: Buffer
  errorName?: string
}

/** Reads whole messages off the front of `buffer`. */
export function readMessages(buffer: Buffer): { messages: Reply[]; rest: Buffer } {
  const messages: Reply[] = []
  let at = 0
  while (buffer.length - at >= 16) {
    const bodyLength = buffer.readUInt32LE(at + 4)
    const fieldsLength = buffer.readUInt32LE(at + 12)
    const headerEnd = at + 16 + fieldsLength
    const bodyStart = headerEnd + ((8 - ((16 + fieldsLength) % 8)) % 8)
    if (buffer.length < bodyStart + bodyLength) break
    let replySerial: number | undefined
    let signature = ''
    let errorName: string | undefined
    let p = at + 16
    while (p < headerEnd) {
      p = at + Math.ceil((p - at) / 8) * 8
      if (p >= headerEnd) break
      const code = buffer[p]!
      const typeLength = buffer[p + 1]!
      const type = buffer.toString('ascii', p + 2, p + 2 + typeLength)
      p += 3 + typeLength
      if (type === 'u') {
        p = at + Math.ceil((p - at) / 4) * 4
        if (code === 5) replySerial = buffer.readUInt32LE(p)
        p += 4
      } else if (type === 'g') {
        const length = buffer[p]!
        if (code === 8) signature = buffer.toString('ascii', p + 1, p + 1 + length)
        p += length + 2
      } else {
        p = at + Math.ceil((p - at) / 4) * 4
        const length = buffer.readUInt32LE(p)
        if (code === 4) errorName = buffer.toString('utf8', p + 4, p + 4 + length)
        p += 4 + length + 1
      }
    }
    messages.push({
      type: buffer[at + 1]!,
      replySerial,
      signature,
      body: buffer.subarray(bodyStart, bodyStart + bodyLength),
      ...(errorName ? { errorName } : {})
    })
    at = bodyStart + bodyLength
  }
  return { messages, rest: buffer.subarray(at) }
}

/** Connects to the bus at `address`, authenticates as this user and says Hello. */
export async function connectBus(address: string | undefined, timeoutMs = 2_000): Promise<BusConnection> {
  const path = busSocketPath(address)
  if (!path) throw new Error('no D-Bus session bus address')
  const socket: Socket = connect({ path })
  socket.setTimeout(timeoutMs, () => socket.destroy(new Error('the D-Bus session bus did not answer')))
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  const uid = String(process.getuid?.() ?? 0)
  socket.write(`\0AUTH EXTERNAL ${Buffer.from(uid).toString('hex')}\r\n`)
  await new Promise<void>((resolve, reject) => {
    let text = ''
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('latin1')
      if (!text.includes('\r\n')) return
      socket.off('data', onData)
      if (text.startsWith('OK')) resolve()
      else reject(new Error(`D-Bus refused to authenticate: ${text.trim()}`))
    }
    socket.on('data', onData)
    socket.once('error', reject)
  })
  socket.write('BEGIN\r\n')
  let serial = 0
  let pending: Buffer = Buffer.alloc(0)
  const waiting = new Map<number, { resolve(value: number): void; reject(error: Error): void }>()
  socket.on('data', (chunk: Buffer) => {
    const { messages, rest } = readMessages(Buffer.concat([pending, chunk]))
    pending = rest
    for (const message of messages) {
      const waiter = message.replySerial !== undefined ? waiting.get(message.replySerial) : undefined
      if (!waiter) continue
      waiting.delete(message.replySerial!)
      if (message.type === 3) waiter.reject(new Error(message.errorName ?? 'D-Bus error'))
      else waiter.resolve(message.body.length >= 4 ? message.body.readUInt32LE(0) : 0)
    }
  })
  const fail = (error: Error): void => {
    for (const [, waiter] of waiting) waiter.reject(error)
    waiting.clear()
  }
  socket.on('error', fail)
  socket.on('close', () => fail(new Error('the D-Bus connection closed')))
  const bus: BusConnection = {
    call(m) {
      const id = ++serial
      return new Promise((resolve, reject) => {
        // Each call has its own deadline; the connection itself may stay idle (a name owner does).
        const timer = setTimeout(() => {
          waiting.delete(id)
          reject(new Error(`the D-Bus session bus did not answer ${m.member}`))
        }, timeoutMs)
        timer.unref()
        waiting.set(id, {
          resolve: (value) => {
            clearTimeout(timer)
            resolve(value)
          },
          reject: (error) => {
            clearTimeout(timer)
            reject(error)
          }
        })
        socket.write(methodCall(id, m))
      })
    },
    close: () => socket.destroy()
  }
  await bus.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'Hello' })
  socket.setTimeout(0)
  return bus
}

const DBUS = { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus' }

/** Whether `name` has an owner on the session bus. */
export async function nameHasOwner(address: string | undefined, name: string): Promise<boolean> {
  const bus = await connectBus(address)
  try {
    return (await bus.call({ ...DBUS, member: 'NameHasOwner', signature: 's', args: [name] })) === 1
  } finally {
    bus.close()
  }
}

/** Takes `name` on the bus (tests: a StatusNotifier host); the connection keeps it until closed. */
export async function ownName(address: string | undefined, name: string): Promise<BusConnection> {
  const bus = await connectBus(address)
  await bus.call({ ...DBUS, member: 'RequestName', signature: 'su', args: [name, 4] })
  return bus
}
