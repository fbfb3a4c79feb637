/**
 * The built `cloud-tray`, run as a child process (and under a real pseudo-terminal), against the
 * web shell's core on the Sandbox with real SSH servers: the issue's done-when list. Stable JSON
 * of `list`, names and their exit codes, `ssh` with a command and interactively (Ctrl-C, window
 * size, exit status), `cp` both ways byte for byte (64 MiB, and a tree of odd names), a tunnel
 * carrying an HTTP request, `watch --json` seeing an instance become Running, and no secret in
 * the command line's arguments or environment.
 */
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as pty from 'node-pty'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { INJECTION_MARKER, makeOddTree, renamedTree, treeOf } from '../main/ssh/testing/odd-tree'
import { httpText, startHttpTarget, type HttpTarget } from '../main/ssh/testing/http-target'
import { buildCli, cliEnv } from './testing/built-cli'
import { startCliSandbox, type CliSandbox } from './testing/cli-sandbox'

/** The fields `list --json` documents (README, "The command line"); others may be added. */
const InstanceJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  statusText: z.string(),
  phase: z.string().nullable(),
  type: z.object({ id: z.string(), name: z.string(), gpus: z.number(), gpu: z.string() }),
  region: z.object({ id: z.string(), name: z.string(), code: z.string() }),
  spot: z.boolean(),
  createdAt: z.iso.datetime(),
  billing: z.object({ chargeMode: z.string(), price: z.number(), unit: z.string() }),
  hourlyRate: z.number().nullable(),
  uptimeSeconds: z.number().int().nullable(),
  costSoFar: z.number().nullable()
})
const ListJsonSchema = z.object({ version: z.literal(1), fetchedAt: z.iso.datetime().nullable(), instances: z.array(InstanceJsonSchema) })

const MiB = 1024 * 1024
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

/** Resolves once `check` holds, polling; fails after `timeoutMs` naming what it waited for. */
async function eventually(what: string, check: () => boolean, timeoutMs = 20_000, seen: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${seen() ? `; saw: ${seen()}` : ''}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('cloud-tray against the Sandbox', () => {
  let sandbox: CliSandbox
  let boxId: string
  let home: string
  let scratch: string

  beforeAll(async () => {
    buildCli()
    scratch = mkdtempSync(join(tmpdir(), 'cloud-tray-cli-test-'))
    sandbox = await startCliSandbox()
    boxId = await sandbox.seed('box')
    await sandbox.seed('train-a')
    await sandbox.seed('train-b')
    await sandbox.trustHostKey(boxId)
    home = (await sandbox.cli(['ssh', 'box', '--', 'pwd'])).stdout.trim()
  }, 60_000)

  afterAll(async () => {
    await sandbox?.close()
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })

  it('lists instances as stable JSON that parses against the documented schema', async () => {
    const run = await sandbox.cli(['list', '--json'])
    expect(run.code).toBe(0)
    const list = ListJsonSchema.parse(JSON.parse(run.stdout))
    expect(list.instances.map((instance) => instance.name).sort()).toEqual(['box-1', 'train-a-1', 'train-b-1'])
    const box = list.instances.find((instance) => instance.id === boxId)!
    expect(box).toMatchObject({ status: 'Running', statusText: 'Running', type: { id: 'gpu-h100-sxm-1x' }, region: { code: 'us-west-1' } })
    expect(box.hourlyRate).toBe(2.49)
    expect(box.costSoFar).toBeGreaterThanOrEqual(0)
    // For people: a table with a header; names only for scripts and completion.
    const table = await sandbox.cli(['list'])
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+TYPE\s+REGION\s+UPTIME\s+RATE\s+COST SO FAR\s+ID$/)
    expect((await sandbox.cli(['list', '--names'])).stdout.split('\n').filter(Boolean).sort()).toEqual(['box-1', 'train-a-1', 'train-b-1'])
  })

  it('takes an instance by a unique start of its name or its id; an ambiguous or unknown name is refused with its code', async () => {
    const byPrefix = await sandbox.cli(['status', 'box', '--json'])
    expect(byPrefix.code).toBe(0)
    expect(JSON.parse(byPrefix.stdout).id).toBe(boxId)
    expect(JSON.parse((await sandbox.cli(['status', boxId, '--json'])).stdout).name).toBe('box-1')

    const ambiguous = await sandbox.cli(['status', 'train'])
    expect(ambiguous.code).toBe(6)
    expect(ambiguous.stderr).toMatch(/^“train” matches 2 instances; give more of the name, or the id:\n {2}train-/)
    expect(ambiguous.stderr).toContain('train-a-1')
    expect(ambiguous.stderr).toContain('train-b-1')
    expect(ambiguous.stdout).toBe('')

    const unknown = await sandbox.cli(['ssh', 'nope', '--', 'true'])
    expect(unknown.code).toBe(4)
    expect(unknown.stderr).toBe('No instance is named “nope” or has that id. `cloud-tray list --all` shows them all.\n')
  })

  it('runs a command over the shared link: its exit status, stdout and stderr apart, piped stdin to EOF', async () => {
    const run = await sandbox.cli(['ssh', 'box', '--', 'echo out; echo err >&2; exit 7'])
    expect(run).toMatchObject({ code: 7, stdout: 'out\n', stderr: 'err\n' })
    const bytes = randomBytes(3 * MiB)
    const piped = await sandbox.cli(['ssh', 'box', '--', 'sha256sum'], { input: bytes })
    expect(piped.code).toBe(0)
    expect(piped.stdout).toBe(`${sha256(bytes)}  -\n`)
    // Arguments after the instance are the command, joined as OpenSSH joins them.
    expect((await sandbox.cli(['ssh', 'box', 'printf', '%s-%s', 'a', 'b'])).stdout).toBe('a-b')
  })

  it('is an interactive shell under a real pseudo-terminal: echo, window size, Ctrl-C passed through, exit status', async () => {
    const term = pty.spawn(process.execPath, [buildCli(), 'ssh', 'box'], {
      name: 'xterm-256color',
      cols: 80,
      rows: 24,
      env: cliEnv(sandbox.runtimeDir, { TERM: 'xterm-256color' }) as Record<string, string>
    })
    let output = ''
    term.onData((data) => (output += data))
    const exited = new Promise<{ exitCode: number }>((resolve) => term.onExit(resolve))
    try {
      const seen = (): string => JSON.stringify(output.slice(-300))
      // Typed once the remote shell shows its prompt (before that, this terminal is not raw yet).
      await eventually('the remote prompt', () => /[#$] $/.test(output), 20_000, seen)
      term.write('echo ready-$((40+2))\r')
      await eventually('the shell to answer', () => output.includes('ready-42\r\n'), 20_000, seen)
      // What was typed comes back as the remote terminal echoes it.
      expect(output).toContain('echo ready-$((40+2))')

      // No secret reaches this process's arguments or environment: it never holds one.
      const cmdline = readFileSync(`/proc/${term.pid}/cmdline`, 'utf8')
      const environ = readFileSync(`/proc/${term.pid}/environ`, 'utf8')
      const access = sandbox.shell.sandbox()
      const secrets = [access.password, readFileSync(access.controlSecretFile!, 'utf8').trim()]
      for (const secret of secrets) {
        expect(secret.length).toBeGreaterThan(8)
        expect(cmdline).not.toContain(secret)
        expect(environ).not.toContain(secret)
      }
      expect(`${cmdline}\n${environ}`).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/) // no JWT (the session's token)

      // The resize reaches this command line as SIGWINCH, which may come after keys typed at
      // the same moment: ask until the remote terminal has the new size.
      term.resize(100, 30)
      const asking = setInterval(() => term.write('stty size\r'), 300)
      try {
        await eventually('the new window size', () => output.includes('30 100\r\n'), 10_000, seen)
      } finally {
        clearInterval(asking)
      }

      // Ctrl-C is a keystroke for the remote terminal: it interrupts the remote command, not this one.
      term.write('echo started; sleep 30\r')
      await eventually('sleep to start', () => /started\r\n/.test(output), 10_000, seen)
      term.write('\x03')
      term.write('echo after-$?\r')
      await eventually('the interrupted command’s status', () => output.includes('after-130'), 10_000, seen)

      term.write('exit 3\r')
      expect((await exited).exitCode).toBe(3)
    } finally {
      term.kill()
    }
  }, 60_000)

  it('copies a 64 MiB file both ways, byte for byte', async () => {
    const local = join(scratch, 'big.bin')
    const bytes = randomBytes(64 * MiB)
    writeFileSync(local, bytes)
    const up = await sandbox.cli(['cp', local, 'box:big.bin'])
    expect(up).toMatchObject({ code: 0, stderr: '' }) // not a terminal: no progress bar
    expect(sha256(readFileSync(join(home, 'big.bin')))).toBe(sha256(bytes))
    const back = join(scratch, 'back.bin')
    const down = await sandbox.cli(['cp', 'box:~/big.bin', back])
    expect(down).toMatchObject({ code: 0, stderr: '' })
    expect(sha256(readFileSync(back))).toBe(sha256(bytes))
    // Into an existing folder, under the same name.
    expect((await sandbox.cli(['cp', 'box:big.bin', scratch])).code).toBe(0)
    expect(sha256(readFileSync(join(scratch, 'big.bin')))).toBe(sha256(bytes))
  }, 60_000)

  it('copies a tree of odd names both ways with -r, byte for byte (names unsafe here renamed, and said), and no name ever reaches a shell', async () => {
    const source = join(scratch, 'source')
    const parent = mkdtempSync(join(scratch, 'odd-'))
    const made = join(parent, makeOddTree(parent, 'odd tree', 2 * MiB))
    const refused = await sandbox.cli(['cp', made, 'box:'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/is a folder: add -r/)
    const up = await sandbox.cli(['cp', '-r', made, 'box:'])
    expect(up).toMatchObject({ code: 0, stderr: '' })
    expect(treeOf(join(home, 'odd tree'))).toEqual(treeOf(made))
    const down = await sandbox.cli(['cp', '-r', 'box:odd tree', source])
    expect(down.code).toBe(0)
    // Byte-identical, with the names the app does not write here as the instance spells them (a
    // newline, a tab, a backslash: src/main/ssh/sftp/local-names.ts, #21) renamed, and said so
    // on stderr even though nobody watches a terminal.
    expect(treeOf(source)).toEqual(renamedTree(treeOf(made)))
    expect(down.stderr).toMatch(/^6 names were changed to be safe on your computer \(“[^\n]*\)\.\n$/)
    for (const folder of [home, scratch, process.cwd()]) expect(existsSync(join(folder, INJECTION_MARKER))).toBe(false)
  }, 60_000)

  describe('tunnels', () => {
    let target: HttpTarget
    beforeAll(async () => {
      target = await startHttpTarget()
    })
    afterAll(async () => {
      await target?.close()
    })

    it('carries an HTTP request to a port inside the instance, is listed, and stops', async () => {
      const started = await sandbox.cli(['tunnel', 'box', String(target.port)])
      expect(started.code).toBe(0)
      const address = started.stdout.trim()
      expect(address).toMatch(/^127\.0\.0\.1:\d+$/)
      expect(await httpText(Number(address.split(':')[1]))).toBe('hello from inside the instance\n')
      const listed = JSON.parse((await sandbox.cli(['tunnel', '--list', '--json'])).stdout) as { localAddress: string; state: string }[]
      expect(listed).toEqual([expect.objectContaining({ localAddress: address, state: 'open', instanceId: boxId })])
      const stopped = await sandbox.cli(['tunnel', '--stop', 'box', String(target.port)])
      expect(stopped.code).toBe(0)
      expect(await sandbox.call('tunnels.list')).toEqual([])
      expect((await sandbox.cli(['tunnel', '--stop', 'box'])).code).toBe(4)
      expect((await sandbox.cli(['tunnel', 'box', '70000'])).code).toBe(2)
    })
  })

  it('watch --json prints each status change, the Running one among them, until Ctrl-C', async () => {
    const child = spawn(process.execPath, [buildCli(), 'watch', '--json'], {
      env: cliEnv(sandbox.runtimeDir),
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
    try {
      // Changes come once it has connected and subscribed.
      await eventually('watch to listen', () => sandbox.socket.subscribers('transitions') > 0)
      const [fresh] = (await sandbox.shell.emulator().seedInstances('demo', 1, { name: 'fresh', status: 'Initializing' })) as [string]
      await sandbox.call('instances.refresh')
      sandbox.shell.emulator().setStatus(fresh, 'Running')
      await sandbox.call('instances.refresh')
      await eventually(
        'the Running line',
        () => out.includes('"to":"Running"'),
        20_000,
        () => out
      )
      const lines = out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(lines).toContainEqual(expect.objectContaining({ id: fresh, name: 'fresh-1', from: null, to: 'Initializing', kind: 'changed' }))
      expect(lines).toContainEqual(
        expect.objectContaining({
          id: fresh,
          from: 'Initializing',
          to: 'Running',
          kind: 'ready',
          title: '«fresh-1» is ready',
          at: expect.any(String)
        })
      )
    } finally {
      child.kill('SIGINT')
    }
    expect(await closed).toBe(0)
  })

  it('prints the Host block the app would write for ~/.ssh/config', async () => {
    const run = await sandbox.cli(['ssh', '--print-config', 'box'])
    expect(run.code).toBe(0)
    const preview = await sandbox.call('ssh.configPreview', { instanceId: boxId })
    expect(run.stdout).toBe(preview.block.endsWith('\n') ? preview.block : `${preview.block}\n`)
    expect(run.stdout).toMatch(/^Host cloudtray-box-1$/m)
  })

  it('asks before stopping, refuses where nobody can answer, and stops with --yes', async () => {
    const victim = await sandbox.seed('victim')
    const refused = await sandbox.cli(['stop', 'victim'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^Stop «victim-1» \(\$2\.49\/h\)\? .* pass --yes to go ahead\.\n$/)
    const stopped = await sandbox.cli(['stop', 'victim', '--yes'])
    expect(stopped).toMatchObject({ code: 0, stdout: '«victim-1» is stopping.\n' })
    // A stopped instance has no shell to give: refused in the app's words (exit 5), not an SSH failure.
    await sandbox.shell.emulator().advance(1_000)
    await sandbox.call('instances.refresh')
    const noShell = await sandbox.cli(['ssh', 'victim', '--', 'true'])
    expect(noShell.code).toBe(5)
    expect(noShell.stderr).toMatch(/victim-1.*(Stopping|Stopped)/)
    const gone = await sandbox.cli(['terminate', victim, '--yes'])
    expect(gone.code).toBe(0)
  })

  it('says the balance and what is billed, as the tray says it', async () => {
    const balance = await sandbox.cli(['balance', '--json'])
    expect(balance.code).toBe(0)
    expect(JSON.parse(balance.stdout)).toMatchObject({
      balance: expect.any(Number),
      availableVoucherAmount: expect.any(Number),
      fetchedAt: expect.any(String)
    })
    const cost = await sandbox.cli(['cost'])
    expect(cost.code).toBe(0)
    // The tray's first line: the runway at the burn rate of everything billed.
    expect(cost.stdout.split('\n')[0]).toMatch(/^≈ \d+ h left at \$\d+\.\d\d\/h$/)
    expect(cost.stdout).toMatch(/^box-1 +\$2\.49\/h +≈ \$\d/m)
  })

  it('deletes for good only once the name is typed at the terminal', async () => {
    const id = await sandbox.seed('doomed')
    const ask = (typed: string): Promise<{ exitCode: number; output: string }> => {
      const term = pty.spawn(process.execPath, [buildCli(), 'terminate', 'doomed'], {
        cols: 200,
        rows: 24,
        env: cliEnv(sandbox.runtimeDir) as Record<string, string>
      })
      let output = ''
      term.onData((data) => (output += data))
      return new Promise((resolve) => {
        term.onExit(({ exitCode }) => resolve({ exitCode, output }))
        void eventually('the question', () => output.includes('Type its name to go ahead: ')).then(() => term.write(`${typed}\r`))
      })
    }
    const wrong = await ask('doomed-2')
    expect(wrong.exitCode).toBe(1)
    expect(wrong.output).toMatch(/Delete «doomed-1» for good\?.*\r\nType its name to go ahead: doomed-2\r\nNothing was deleted\./s)
    expect(
      sandbox.shell
        .emulator()
        .instances()
        .some((each) => each.instanceMetadata.instanceId === id)
    ).toBe(true)
    const right = await ask('doomed-1')
    expect(right.exitCode).toBe(0)
    expect(right.output).toContain('«doomed-1» is being deleted.')
  })

  it('says where templates come from when the profile has none, and launches nothing', async () => {
    const before = sandbox.shell.emulator().instances().length
    const run = await sandbox.cli(['launch', '--template', 'gpu-dev', '--yes'])
    expect(run).toMatchObject({
      code: 4,
      stderr:
        'No launch template is named “gpu-dev”. This profile has none yet: in Cloud Tray, “Save as template…” on the create form’s review step makes one.\n'
    })
    expect(sandbox.shell.emulator().instances().length).toBe(before)
  })
})
