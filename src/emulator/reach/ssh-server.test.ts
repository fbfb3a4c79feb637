import { createServer, type Server } from 'node:net'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { existsSync, readFileSync } from 'node:fs'
import ssh2, { type ClientChannel, type SFTPWrapper } from 'ssh2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createReach, type EmulatorReach } from './index'
import {
  connectToInstance,
  fakeCloud,
  freePort,
  reachInTempState,
  runInstance,
  userKey,
  waitForText,
  type FakeCloud
} from './testing/fake-cloud'
import { isLoopback } from './ssh-server'
import { showsHome } from './shown-home'
import { ROUND_TRIP_PROBES, probeRoundTrips } from '../../main/ssh/data-path/round-trip'
import { posixShellMissing, skipBecause } from '../../shared/node/testing/platform-support'

/** These type bash (echo $((…)), stty, yes, exit codes) into the instance's shell. */
const noPosixShell = skipBecause(posixShellMissing(), 'the built-in SSH server’s shell and exec tests')

const alice = userKey()
const mallory = userKey()
let cloud: FakeCloud
let reach: EmulatorReach
let stateDir: string
let sshPort: number

beforeAll(async () => {
  ;({ stateDir, cloud, reach } = await reachInTempState('reach-ssh-test-', { alice: [alice.publicKey] }))
  sshPort = await freePort()
  await runInstance(cloud, reach, 'inst-1', 'alice', { 22: sshPort })
})

afterAll(async () => {
  await reach.close()
  await rm(stateDir, { recursive: true, force: true })
})

/** Connects with host-key verification against the emulator's published key (never accept-all). */
function connect(options: { username?: string; privateKey?: string } = {}): Promise<ssh2.Client> {
  return connectToInstance(reach, sshPort, {
    privateKey: options.privateKey ?? alice.privateKey,
    ...(options.username ? { username: options.username } : {})
  })
}

function shell(client: ssh2.Client, window: { rows: number; cols: number }): Promise<ClientChannel> {
  return new Promise((resolve, reject) =>
    client.shell({ term: 'xterm-256color', rows: window.rows, cols: window.cols, width: 0, height: 0 }, (error, stream) =>
      error ? reject(error) : resolve(stream)
    )
  )
}

/** Opens a 24×80 PTY shell as alice, runs `session` in it, then exits the shell and hangs up. */
async function inShell(session: (stream: ClientChannel) => Promise<void>): Promise<void> {
  const client = await connect()
  try {
    const stream = await shell(client, { rows: 24, cols: 80 })
    await session(stream)
    stream.end('exit\n')
  } finally {
    client.end()
  }
}

function exec(
  client: ssh2.Client,
  command: string
): Promise<{ code: number | undefined; signal: string | undefined; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) =>
    client.exec(command, (error, stream) => {
      if (error) return reject(error)
      let stdout = ''
      let stderr = ''
      let code: number | undefined
      let signal: string | undefined
      stream.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      stream.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      stream.on('exit', (exitCode: number | null, signalName?: string) => {
        code = exitCode ?? undefined
        signal = signalName
      })
      stream.on('close', () => resolve({ code, signal, stdout, stderr }))
    })
  )
}

describe('built-in SSH server', () => {
  it.skipIf(noPosixShell)('runs a PTY shell in the instance home: echo round trip', async () => {
    await inShell(async (stream) => {
      stream.write('echo $((6*7)); pwd; echo "user=$USER"\n')
      // Bash may wrap its output in escape sequences (bracketed paste on/off): compare the text without them.
      const text = (await waitForText(stream, /user=root/)).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
      expect(text).toMatch(/[\r\n]42\r?\n/)
      // A real instance's home (#24) where this machine can show it so; else the folder itself.
      expect(text).toContain(showsHome('root') ? '\n/root' : join(stateDir, 'emulator-reach', 'homes', 'inst-1'))
    })
  })

  it.skipIf(noPosixShell)('resizes the PTY on window-change', async () => {
    await inShell(async (stream) => {
      stream.write('stty size\n')
      await waitForText(stream, /24 80/)
      stream.setWindow(40, 132, 0, 0)
      stream.write('stty size\n')
      await waitForText(stream, /40 132/)
    })
  })

  it.skipIf(noPosixShell)('stops a `yes` flood on Ctrl-C and gives the prompt back', async () => {
    await inShell(async (stream) => {
      stream.write('yes\n')
      await waitForText(stream, /(y\r\n){200}/)
      stream.write('\x03')
      stream.write('echo done-$((1+1))\n')
      await waitForText(stream, /done-2/)
    })
  })

  it.skipIf(noPosixShell)('delivers every byte of a PTY command’s output before its exit status', async () => {
    const client = await connect()
    try {
      const size = 8 * 1024 * 1024
      const received = await new Promise<{ bytes: number; code: number | undefined }>((resolve, reject) =>
        client.exec(`head -c ${size} /dev/zero`, { pty: { rows: 24, cols: 80 } }, (error, stream) => {
          if (error) return reject(error)
          let bytes = 0
          let code: number | undefined
          stream.on('data', (chunk: Buffer) => (bytes += chunk.length))
          stream.on('exit', (exitCode: number) => (code = exitCode))
          stream.on('close', () => resolve({ bytes, code }))
        })
      )
      expect(received).toEqual({ bytes: size, code: 0 })
    } finally {
      client.end()
    }
  })

  it.skipIf(noPosixShell)('answers exec with output, stderr and the exit code', async () => {
    const client = await connect()
    try {
      const result = await exec(client, 'echo out; echo err >&2; exit 7')
      expect(result).toMatchObject({ code: 7, stdout: 'out\n', stderr: 'err\n' })
      expect((await exec(client, 'true')).code).toBe(0)
      // Killed by a signal: exit-signal "TERM" on the wire, as sshd sends it (ssh2's client adds "SIG").
      expect(await exec(client, 'kill -TERM $$')).toMatchObject({ code: undefined, signal: 'SIGTERM' })
    } finally {
      client.end()
    }
  })

  it.skipIf(
    skipBecause(
      existsSync('/usr/lib/openssh/sftp-server') ? undefined : 'OpenSSH’s sftp-server is not installed (Debian: openssh-sftp-server)',
      'the SFTP test of the built-in SSH server'
    )
  )('serves SFTP (scp, sftp) in the instance home through OpenSSH’s sftp-server', async () => {
    const client = await connect()
    try {
      const sftp = await new Promise<SFTPWrapper>((resolve, reject) =>
        client.sftp((error, session) => (error ? reject(error) : resolve(session)))
      )
      await new Promise<void>((resolve, reject) => sftp.writeFile('hello.txt', 'from sftp', (error) => (error ? reject(error) : resolve())))
      const back = await new Promise<Buffer>((resolve, reject) =>
        sftp.readFile('hello.txt', (error, data) => (error ? reject(error) : resolve(data)))
      )
      expect(back.toString()).toBe('from sftp')
      expect(readFileSync(join(stateDir, 'emulator-reach', 'homes', 'inst-1', 'hello.txt'), 'utf8')).toBe('from sftp')
      sftp.end()
    } finally {
      client.end()
    }
  })

  it.skipIf(noPosixShell)('holds a dozen sessions on one connection without a close listener each', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error): void => {
      if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message)
    }
    process.on('warning', onWarning)
    const client = await connect()
    try {
      // Twelve at once, as a window's tabs, files panel and tunnels on one instance are.
      const opened = await Promise.all(
        Array.from(
          { length: 12 },
          () =>
            new Promise<ClientChannel>((resolve, reject) =>
              client.exec('cat', (error, stream) => (error ? reject(error) : resolve(stream)))
            )
        )
      )
      // Node reports the warning on a later tick.
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings).toEqual([])
      for (const stream of opened) stream.end()
      expect((await exec(client, 'echo still-$((6*7))')).stdout).toBe('still-42\n')
    } finally {
      process.off('warning', onWarning)
      client.end()
    }
  })

  it.skipIf(noPosixShell)('refuses the app’s round-trip probe (a cancel-tcpip-forward) at once, and the session goes on', async () => {
    const client = await connect()
    try {
      const roundTrips = await probeRoundTrips(client, () => {})
      expect(roundTrips).toHaveLength(ROUND_TRIP_PROBES)
      expect((await exec(client, 'true')).code).toBe(0)
    } finally {
      client.end()
    }
  })

  it('forwards direct-tcpip to loopback only', async () => {
    const echo: Server = createServer((socket) => socket.pipe(socket))
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
    const port = (echo.address() as { port: number }).port
    const client = await connect()
    try {
      const channel = await new Promise<ClientChannel>((resolve, reject) =>
        client.forwardOut('127.0.0.1', 0, '127.0.0.1', port, (error, stream) => (error ? reject(error) : resolve(stream)))
      )
      channel.write('ping through the tunnel')
      await waitForText(channel, /ping through the tunnel/)
      channel.end()
      await expect(
        new Promise((resolve, reject) =>
          client.forwardOut('127.0.0.1', 0, '192.0.2.1', 80, (error, stream) => (error ? reject(error) : resolve(stream)))
        )
      ).rejects.toThrow()
    } finally {
      client.end()
      await new Promise<void>((resolve) => echo.close(() => resolve()))
    }
  })

  it('refuses a key the owner did not register, and another user name', async () => {
    await expect(connect({ privateKey: mallory.privateKey })).rejects.toThrow(/authentication/i)
    await expect(connect({ username: 'admin' })).rejects.toThrow(/authentication/i)
  })

  it('accepts a key registered after the server started', async () => {
    cloud.keys.set('alice', [alice.publicKey, mallory.publicKey])
    const client = await connect({ privateKey: mallory.privateKey })
    client.end()
    cloud.keys.set('alice', [alice.publicKey])
  })

  it('stops listening when the instance stops', async () => {
    await reach.instanceStopped('inst-1')
    await expect(connect()).rejects.toThrow(/ECONNREFUSED/)
    await reach.instanceRunning(cloud.instances.get('inst-1')!)
    const client = await connect()
    client.end()
  })

  it('keeps the host key with the state', async () => {
    const again = await createReach()(fakeCloud(stateDir).context)
    try {
      expect(again.sshHostPublicKey).toBe(reach.sshHostPublicKey)
      expect(again.notebookCertSha256).toBe(reach.notebookCertSha256)
    } finally {
      await again.close()
    }
  })
})

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['::1', true],
    ['10.0.0.1', false],
    ['0.0.0.0', false],
    ['example.com', false],
    ['127.0.0.1.example.com', false]
  ])('%s → %s', (host, expected) => expect(isLoopback(host)).toBe(expected))
})
