/**
 * The command line's latency, end to end, against references measured in the same run:
 *
 * 1. `cloud-tray list --json` (a new process: Node's start, the bundle, the socket and its proof,
 *    two commands, the JSON) against the same list through the window's contract (a connected
 *    WebSocket client, as the page is: the same two commands and the same JSON). Target ≤ 1.5.
 *    Node's own start (`node -e 0`) is printed beside them: a process is never as quick as a
 *    call in a window that is already open, and the figure says how much of the gap is Node's.
 * 2. `cloud-tray ssh NAME -- true` on the app's warm shared link against OpenSSH's `ssh` with the
 *    Host block the app writes (`ssh --print-config`), to the same sshd. Target ≤ 1.0: the shared
 *    link skips the key exchange and authentication OpenSSH does on each run.
 *
 * The command line runs through its launcher (what the PATH link runs). NODE_EXTRA_CA_CERTS is
 * taken out of its environment: it makes Node parse the whole CA bundle at start (this machine
 * sets it for npm's proxy; ~85 ms here), and the command line makes no TLS connection; the
 * launcher itself drops it (src/cli/launchers/cloud-tray).
 *
 *   npx tsx bench/cli-latency.ts [--runs 20] [--instances 50]
 */
import './plays-main'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import WebSocket from 'ws'
import { createReach } from '../src/emulator/reach/index'
import { startCliSocket } from '../src/main/cli-socket/cli-socket-server'
import type { SshPrompt } from '../src/shared/contract-ssh'
import { cliSocketPlace } from '../src/shared/node/cli-socket/place'
import { WS_PROTOCOL, WS_SECRET_PREFIX, decodeFrame, type ServerMessage } from '../src/shared/web/ws-protocol'
import { OpenSshServer, opensshAvailable } from '../src/main/ssh/testing/openssh-server'
import { startWebShell } from '../src/web/server'
import { instanceJson, metersAt, LIST_JSON_VERSION } from '../src/cli/instance-view'
import { buildCli } from '../src/cli/testing/built-cli'
import { numberArgument, runBench } from './run-bench'

const LIST_TARGET = 1.5
const SSH_TARGET = 1.0
const arg = numberArgument
const RUNS = arg('--runs', 20)
const INSTANCES = arg('--instances', 50)

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Wall time of one process, spawn to exit; rejects on a non-zero exit. */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`))
    )
  })
}

async function repeat(runs: number, once: () => Promise<number>): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push(await once())
  return median(times)
}

/** A window's connection to the web shell, as the page makes it (no downlink: results on the socket). */
async function windowClient(url: string, origin: string) {
  const secret = new URL(url).hash.replace(/^#secret=/, '')
  const socket = new WebSocket(`${origin.replace('http', 'ws')}/ws`, [WS_PROTOCOL, `${WS_SECRET_PREFIX}${secret}`], { headers: { origin } })
  const pending = new Map<number, (value: unknown) => void>()
  let nextId = 1
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject)
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      const message = decodeFrame(isBinary ? new Uint8Array(data) : data.toString('utf8')) as ServerMessage
      if (message.t === 'hello') resolve()
      if (message.t === 'result') {
        pending.get(message.id)?.(message.result.ok ? message.result.value : undefined)
        pending.delete(message.id)
      }
    })
  })
  const invoke = <T>(command: string): Promise<T> =>
    new Promise((resolve) => {
      const id = nextId++
      pending.set(id, resolve as (value: unknown) => void)
      socket.send(JSON.stringify({ t: 'invoke', id, command }))
    })
  return { invoke, close: () => socket.close() }
}

async function main(): Promise<number> {
  if (!opensshAvailable()) {
    console.error('cli-latency: needs /usr/sbin/sshd, ssh and ssh-keygen (Debian openssh-server, openssh-client).')
    return 2
  }
  const scratch = mkdtempSync(join(tmpdir(), 'cloudtray-cli-latency-'))
  const sshd = new OpenSshServer()
  await sshd.start()
  const rendererDir = join(scratch, 'renderer')
  mkdirSync(rendererDir)
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Cloud Tray</title>')
  const shell = await startWebShell({
    rendererDir,
    emulator: { bootMs: 300, stopMs: 100 },
    reach: createReach({ sshBackend: { host: '127.0.0.1', port: sshd.port } })
  })
  const runtimeDir = join(scratch, 'run')
  const place = cliSocketPlace({ platform: process.platform, env: { CLOUD_TRAY_RUNTIME_DIR: runtimeDir }, home: tmpdir() })
  const cliSocket = await startCliSocket({ core: shell.core, version: 'bench', place })
  const call = async <T>(command: string, input?: unknown, clientId = 'bench-window'): Promise<T> => {
    const result = await shell.core.handle(command as never, input, { clientId })
    if (!result.ok) throw new Error(`${command}: ${result.error.message}`)
    return result.value as T
  }
  try {
    const profiles = await call<{ demoPassword?: string }>('profiles.get')
    await call('session.login', { profileId: 'sandbox', username: 'demo', password: profiles.demoPassword ?? '', rememberMe: false })
    await call('settings.update', { sshKeyFile: sshd.userKeyPath })
    const [benchId] = await shell.emulator().seedInstances('demo', 1, { name: 'bench' })
    if (INSTANCES > 1) await shell.emulator().seedInstances('demo', INSTANCES - 1, { name: 'other' })
    await call('instances.refresh')

    // The host key, accepted once in a window (as a user does), so both sides trust it.
    const prompts: SshPrompt[] = []
    shell.core.subscribe((event, payload, target) => {
      if (event === 'ssh.prompt' && target === 'trust-window') prompts.push(payload as SshPrompt)
    })
    const { terminalId } = await call<{ terminalId: string }>('ssh.open', { instanceId: benchId, cols: 80, rows: 24 }, 'trust-window')
    for (let i = 0; i < 200 && prompts.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50))
    await call(
      'ssh.answer',
      { promptId: prompts[0]!.promptId, answer: { kind: 'host-key', decision: 'accept-and-remember' } },
      'trust-window'
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    await call('ssh.close', { terminalId }, 'trust-window')
    shell.core.clientGone('trust-window')

    const launcher = join(dirname(buildCli()), 'cloud-tray')
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], CLOUD_TRAY_RUNTIME_DIR: runtimeDir }

    // 1. list.
    const window = await windowClient(shell.url, shell.origin)
    const windowList = async (): Promise<number> => {
      const started = performance.now()
      const [snapshot, cost] = await Promise.all([
        window.invoke<{ instances: never[]; fetchedAt: number }>('instances.get'),
        window.invoke<never>('cost.get')
      ])
      const meters = metersAt(cost, Date.now())
      const text = JSON.stringify(
        {
          version: LIST_JSON_VERSION,
          fetchedAt: new Date(snapshot.fetchedAt).toISOString(),
          instances: snapshot.instances.map((each) =>
            instanceJson(each, meters.get((each as { instanceMetadata: { instanceId: string } }).instanceMetadata.instanceId))
          )
        },
        null,
        2
      )
      if (text.length < 100) throw new Error('the window got no list')
      return performance.now() - started
    }
    await repeat(5, windowList)
    const windowMs = await repeat(RUNS * 3, windowList)
    window.close()
    await repeat(2, () => timed(launcher, ['list', '--json'], env))
    const cliListMs = await repeat(RUNS, () => timed(launcher, ['list', '--json'], env))
    const nodeMs = await repeat(RUNS, () => timed(process.execPath, ['-e', '0'], env))
    const versionMs = await repeat(RUNS, () => timed(launcher, ['--version'], env))
    const withCaMs = process.env['NODE_EXTRA_CA_CERTS']
      ? await repeat(5, () => timed(process.execPath, ['-e', '0'], { ...env, NODE_EXTRA_CA_CERTS: process.env['NODE_EXTRA_CA_CERTS'] }))
      : undefined
    const listRatio = cliListMs / windowMs

    // 2. ssh: OpenSSH with the Host block the app writes, its host key known, never prompting.
    const preview = await call<{ block: string }>('ssh.configPreview', { instanceId: benchId })
    const alias = /^Host (\S+)$/m.exec(preview.block)![1]!
    const port = /^\s*Port (\d+)$/m.exec(preview.block)![1]!
    const { keyType, keyBase64 } = sshd.hostPublicKey()
    writeFileSync(join(scratch, 'known_hosts'), `[127.0.0.1]:${port} ${keyType} ${keyBase64}\n`)
    const config = join(scratch, 'ssh_config')
    writeFileSync(
      config,
      `${preview.block}\nHost *\n  UserKnownHostsFile ${join(scratch, 'known_hosts')}\n  StrictHostKeyChecking yes\n  BatchMode yes\n  LogLevel ERROR\n`
    )
    await repeat(2, () => timed('ssh', ['-F', config, alias, 'true'], env))
    const opensshMs = await repeat(RUNS, () => timed('ssh', ['-F', config, alias, 'true'], env))
    // The first run makes the link; it stays warm afterwards (as ControlPersist keeps OpenSSH's).
    await repeat(2, () => timed(launcher, ['ssh', 'bench', '--', 'true'], env))
    const cliSshMs = await repeat(RUNS, () => timed(launcher, ['ssh', 'bench', '--', 'true'], env))
    const sshRatio = cliSshMs / opensshMs

    const ms = (value: number): string => `${value.toFixed(1)} ms`
    console.log(`list of ${INSTANCES} instances, median of ${RUNS} runs:`)
    console.log(`  cloud-tray list --json (a new process)    ${ms(cliListMs)}`)
    console.log(`  the window's contract (a connected page)  ${ms(windowMs)}`)
    console.log(
      `  node -e 0 (Node's own start)               ${ms(nodeMs)}${withCaMs ? `  (${ms(withCaMs)} with this machine's NODE_EXTRA_CA_CERTS)` : ''}`
    )
    console.log(`  cloud-tray --version (launcher and bundle, no app)  ${ms(versionMs)}`)
    console.log(`  the command line beyond Node's start       ${ms(cliListMs - nodeMs)}`)
    console.log(`  ratio ${listRatio.toFixed(2)} (target ≤ ${LIST_TARGET}): ${listRatio <= LIST_TARGET ? 'met' : 'MISSED'}`)
    console.log(`ssh NAME -- true, median of ${RUNS} runs, to the same sshd:`)
    console.log(`  cloud-tray ssh (the app's warm link)      ${ms(cliSshMs)}`)
    console.log(`  OpenSSH ssh with the app's Host block      ${ms(opensshMs)}`)
    console.log(`  ratio ${sshRatio.toFixed(2)} (target ≤ ${SSH_TARGET}): ${sshRatio <= SSH_TARGET ? 'met' : 'MISSED'}`)
    return listRatio <= LIST_TARGET && sshRatio <= SSH_TARGET ? 0 : 1
  } finally {
    await cliSocket?.close()
    await shell.close()
    await sshd.dispose()
    rmSync(scratch, { recursive: true, force: true })
  }
}

runBench(main)
