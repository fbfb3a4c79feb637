/**
 * The command line as users run it: built by vite.cli.config.ts (into a folder of the test's
 * own, so parallel test files never share one) and run as a child process with Node, its
 * runtime folder pointed at the test's app through CLOUD_TRAY_RUNTIME_DIR (a place, not a secret).
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')

let built: string | undefined

/** Builds out the CLI once per test file; answers the path of `cloud-tray.cjs`. */
export function buildCli(): string {
  if (built) return built
  const outDir = mkdtempSync(join(tmpdir(), 'cloud-tray-cli-'))
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')
  const result = spawnSync(process.execPath, [vite, 'build', '-c', 'vite.cli.config.ts', '--outDir', outDir, '--logLevel', 'error'], {
    cwd: ROOT,
    encoding: 'utf8'
  })
  if (result.status !== 0) throw new Error(`building the CLI failed: ${result.stderr || result.stdout}`)
  built = join(outDir, 'cloud-tray.cjs')
  return built
}

export interface CliRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface CliRunOptions {
  runtimeDir: string
  /** Written to stdin, which then ends; absent: stdin is /dev/null. */
  input?: string | Buffer
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
}

/** The CLI's environment: the test's runtime folder, nothing of the user's session. */
export function cliEnv(runtimeDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], CLOUD_TRAY_RUNTIME_DIR: runtimeDir, ...extra }
  return env
}

export function runCli(args: readonly string[], options: CliRunOptions): Promise<CliRun> {
  const cli = buildCli()
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: cliEnv(options.runtimeDir, options.env),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe']
    })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolvePromise({ code, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') })
    })
    if (options.input !== undefined) child.stdin!.end(options.input)
  })
}
