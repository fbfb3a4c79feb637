/**
 * The built `cloud-tray` when things are not as they should be: the app not running (and
 * `--start`, from a source checkout and from an installed layout), signed out, its folder open
 * to others at start or after, a socket left by a crashed app, and another user's process (a
 * second uid where this machine lets the test run one: as root, `runuser -u nobody`).
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebShell } from '../web/server'
import { buildCli, runCli } from './testing/built-cli'
import { placeIn, runtimeFolder, startCliSandbox, type CliSandbox } from './testing/cli-sandbox'

const ROOT = resolve(import.meta.dirname, '..', '..')
const NOT_RUNNING =
  'Cloud Tray is not running. Start Cloud Tray (it stays in the tray), or run this again with --start to start it there.\n'

const scratch: string[] = []
function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  scratch.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
})
beforeAll(() => void buildCli())

describe('the command line itself', () => {
  it('exits 2 on a usage error in any command, 0 for --help and --version, without needing the app', async () => {
    const runtimeDir = join(folder('ct-none-'), 'never-made')
    for (const args of [['lst'], ['cp', 'only-one'], ['list', '--bogus'], ['ssh'], ['completion', 'tcsh'], ['tunnel', 'box', '0']]) {
      const run = await runCli(args, { runtimeDir })
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr, args.join(' ')).not.toBe('')
    }
    const help = await runCli(['stop', '--help'], { runtimeDir })
    expect(help).toMatchObject({ code: 0, stderr: '' })
    expect(help.stdout).toMatch(/^Usage: cloud-tray stop \[options\] <instance>/)
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
    expect(await runCli(['--version'], { runtimeDir })).toMatchObject({ code: 0, stdout: `cloud-tray ${pkg.version}\n` })
  })
})

describe('when the app is not there', () => {
  it('says the app is not running and how to start it (exit 7), with no folder or with a folder but no socket', async () => {
    const missing = join(folder('ct-none-'), 'never-made')
    expect(await runCli(['list'], { runtimeDir: missing })).toMatchObject({ code: 7, stdout: '', stderr: NOT_RUNNING })
    expect(await runCli(['ssh', 'box', '--', 'true'], { runtimeDir: runtimeFolder() })).toMatchObject({ code: 7, stderr: NOT_RUNNING })
  })

  it('--start from a source checkout says how to start the app instead', async () => {
    const run = await runCli(['--start', 'list'], { runtimeDir: runtimeFolder() })
    expect(run.code).toBe(7)
    expect(run.stderr).toMatch(
      /not part of an installed Cloud Tray, so --start cannot start it\. In a source checkout, start it with `npm run web`/
    )
  })

  it('--start from an installed layout starts the app hidden (--hidden) and then talks to it', async () => {
    // <app>/cloud-tray (the binary electron-builder makes on Linux) and <app>/resources/cli (extraResources).
    const app = folder('ct-app-')
    cpSync(dirname(buildCli()), join(app, 'resources', 'cli'), { recursive: true })
    const binary = join(app, 'cloud-tray')
    writeFileSync(
      binary,
      `#!/bin/sh\necho "$@" > '${join(app, 'started-with')}'\necho $$ > '${join(app, 'pid')}'\nexec '${join(ROOT, 'node_modules', '.bin', 'tsx')}' '${join(ROOT, 'src', 'cli', 'testing', 'fake-app.ts')}'\n`,
      { mode: 0o755 }
    )
    const runtimeDir = runtimeFolder()
    const cli = join(app, 'resources', 'cli', 'cloud-tray.cjs')
    try {
      const run = await new Promise<{ code: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, [cli, 'list', '--start'], {
          env: { PATH: process.env['PATH'], HOME: process.env['HOME'], CLOUD_TRAY_RUNTIME_DIR: runtimeDir },
          stdio: ['ignore', 'ignore', 'pipe']
        })
        let stderr = ''
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
        child.on('close', (code) => done({ code, stderr }))
      })
      expect(readFileSync(join(app, 'started-with'), 'utf8')).toBe('--hidden\n')
      // The app it started answers: signed out.
      expect(run).toEqual({ code: 3, stderr: 'Cloud Tray is signed out: sign in from the tray or the window, then try again.\n' })
    } finally {
      if (existsSync(join(app, 'pid'))) process.kill(Number(readFileSync(join(app, 'pid'), 'utf8')), 'SIGTERM')
    }
  }, 60_000)
})

describe('a signed-out app', () => {
  let sandbox: CliSandbox
  beforeAll(async () => {
    sandbox = await startCliSandbox({ signedIn: false })
  })
  afterAll(async () => {
    await sandbox?.close()
  })

  it('answers every command that needs the cloud with exit 3 and what to do', async () => {
    for (const args of [['list'], ['status', 'box'], ['ssh', 'box'], ['watch'], ['balance']]) {
      expect(await sandbox.cli(args)).toMatchObject({
        code: 3,
        stdout: '',
        stderr: 'Cloud Tray is signed out: sign in from the tray or the window, then try again.\n'
      })
    }
  })
})

describe('the socket’s place', () => {
  it('is refused at start when its folder is open to others: the shell runs without it and the command line will not connect', async () => {
    const runtimeDir = runtimeFolder()
    scratch.push(runtimeDir)
    chmodSync(runtimeDir, 0o755)
    const lines: string[] = []
    const rendererDir = folder('ct-renderer-')
    writeFileSync(join(rendererDir, 'index.html'), 'x')
    const shell = await startWebShell({ rendererDir, cliSocket: { place: placeIn(runtimeDir) }, log: (line) => lines.push(line) })
    try {
      expect(shell.cliSocket).toBeUndefined()
      expect(lines).toContainEqual(
        expect.stringMatching(/^cloud-tray \(the command line\) is off: .* is open to other users \(mode 0755\); it must be 0700\./)
      )
      expect(existsSync(join(runtimeDir, 'cli.sock'))).toBe(false)
      const run = await runCli(['list'], { runtimeDir })
      expect(run.code).toBe(7)
      expect(run.stderr).toMatch(/^The command line will not connect through .*: .* is open to other users \(mode 0755\)/)
    } finally {
      await shell.close()
    }
  })

  it('replaces a socket left behind by a crashed app, safely, and serves the command line there', async () => {
    const runtimeDir = runtimeFolder()
    scratch.push(runtimeDir)
    const path = join(runtimeDir, 'cli.sock')
    const crashed = spawn(
      process.execPath,
      ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`],
      {
        stdio: ['ignore', 'pipe', 'inherit']
      }
    )
    await new Promise<void>((resolveUp) => crashed.stdout.once('data', () => resolveUp()))
    crashed.kill('SIGKILL')
    await new Promise((resolveExit) => crashed.once('exit', resolveExit))
    expect(statSync(path).isSocket()).toBe(true)
    expect(await runCli(['list'], { runtimeDir })).toMatchObject({ code: 7, stderr: NOT_RUNNING })

    const rendererDir = folder('ct-renderer-')
    writeFileSync(join(rendererDir, 'index.html'), 'x')
    const shell = await startWebShell({ rendererDir, cliSocket: { place: placeIn(runtimeDir) } })
    try {
      expect(shell.cliSocket).toBe(path)
      expect(await runCli(['list'], { runtimeDir })).toMatchObject({ code: 3 })
    } finally {
      await shell.close()
    }
    expect(existsSync(path)).toBe(false)
  })
})

/** Whether this machine lets the test run a process as `nobody` (root with runuser), and that process can run Node. */
function asNobody(): string | undefined {
  if (process.getuid?.() !== 0) return 'the test runs as a user who cannot start a process as another user'
  const probe = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '-e', 'process.stdout.write(String(process.getuid()))'], {
    encoding: 'utf8'
  })
  if (probe.status !== 0) return `runuser -u nobody does not work here (${probe.stderr.trim() || probe.error?.message})`
  return probe.stdout === '65534' ? undefined : `runuser gave uid ${probe.stdout}`
}

const nobody = asNobody()
if (nobody) console.log(`cli-security: skipping the second-uid tests: ${nobody}`)

describe.skipIf(nobody !== undefined)('another user’s process (uid nobody, through runuser)', () => {
  let sandbox: CliSandbox
  let shared: string
  beforeAll(async () => {
    sandbox = await startCliSandbox()
    // The command line where nobody can read it: a copy in a folder open to all.
    shared = folder('ct-shared-')
    chmodSync(shared, 0o755)
    cpSync(dirname(buildCli()), join(shared, 'cli'), { recursive: true })
    for (const dir of [join(shared, 'cli'), join(shared, 'cli', 'chunks')]) chmodSync(dir, 0o755)
  })
  afterAll(async () => {
    await sandbox?.close()
  })

  /** Runs Node as nobody; asynchronously, as the app answering it runs in this process. */
  const runAsNobody = (args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> =>
    new Promise((done) => {
      const child = spawn('runuser', ['-u', 'nobody', '--', process.execPath, ...args], {
        env: { PATH: process.env['PATH'], HOME: '/nonexistent', CLOUD_TRAY_RUNTIME_DIR: sandbox.runtimeDir },
        stdio: ['ignore', 'pipe', 'pipe']
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
      child.on('close', (status) => {
        clearTimeout(timer)
        done({ status, stdout, stderr })
      })
    })

  it('cannot use the socket: the command line will not, and the kernel would not let it through the folder', async () => {
    const run = await runAsNobody([join(shared, 'cli', 'cloud-tray.cjs'), 'list'])
    expect(run.status).toBe(7)
    expect(run.stderr).toMatch(/^The command line will not connect through .*: .* belongs to another user \(uid 0\)\.\n$/)
    // Bypassing the command line's own check: connect(2) is refused (no search permission on 0700).
    const raw = await runAsNobody([
      '-e',
      `require('node:net').createConnection(${JSON.stringify(sandbox.place.path)}).on('error', (e) => { console.log(e.code); process.exit(0) }).on('connect', () => { console.log('connected'); process.exit(0) })`
    ])
    expect(raw.stdout.trim()).toBe('EACCES')
  })

  it('is refused by the app even when the folder and socket were opened up to it, before anything reaches the core', async () => {
    const handled = sandbox.socket.clientCount
    chmodSync(sandbox.runtimeDir, 0o711)
    chmodSync(sandbox.place.path, 0o666)
    try {
      const raw = await runAsNobody([
        '-e',
        `const s = require('node:net').createConnection(${JSON.stringify(sandbox.place.path)}); let b = Buffer.alloc(0);
         s.on('data', (d) => { b = Buffer.concat([b, d]); if (b.length >= 5 && b.length >= 5 + b.readUInt32BE(0)) { console.log(b.subarray(5, 5 + b.readUInt32BE(0)).toString()); process.exit(0) } });
         s.on('error', (e) => { console.log('error ' + e.code); process.exit(0) })`
      ])
      const message = JSON.parse(raw.stdout.trim()) as { t: string; message: string }
      expect(message.t).toBe('refused')
      expect(message.message).toMatch(/^Cloud Tray refused the connection: .* is open to other users \(mode 0711\)/)
      expect(sandbox.socket.clientCount).toBe(handled)
    } finally {
      chmodSync(sandbox.runtimeDir, 0o700)
      chmodSync(sandbox.place.path, 0o600)
    }
  })
})
