/**
 * The CI workflow is valid YAML, runs on the three desktop OSes, and runs the same commands the
 * README tells a person to run (so the two cannot drift apart).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const ROOT = join(import.meta.dirname, '..')

interface Step {
  name?: string
  run?: string
  uses?: string
  if?: string
  with?: Record<string, unknown>
}
interface Workflow {
  on: Record<string, unknown>
  jobs: Record<string, { 'runs-on': string; strategy?: { matrix?: { os?: string[] } }; steps: Step[] }>
}

const workflow = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8'), { strict: true }) as Workflow
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps)

/** npm/npx commands the workflow runs, without the Xvfb wrapper (a display, not a different command). */
const workflowCommands = steps
  .flatMap((step) => (step.run ?? '').split('\n'))
  .map((line) => line.trim().replace(/xvfb-run -a /g, ''))
  .filter((line) => /^(npm|npx) /.test(line) && !line.startsWith('npm config '))

/** Commands shown in the README's shell code blocks (```sh, ```bash, ```shell), without trailing comments. */
function readmeCommands(): string[] {
  const commands: string[] = []
  let fence: string | null = null
  for (const line of readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n')) {
    const marker = /^\s*```(\w*)\s*$/.exec(line)
    if (marker) {
      fence = fence === null ? (marker[1] ?? '') : null
      continue
    }
    if (fence !== null && ['sh', 'bash', 'shell'].includes(fence)) {
      const command = line.replace(/\s+#.*$/, '').trim()
      if (command) commands.push(command)
    }
  }
  return commands
}

describe('.github/workflows/ci.yml', () => {
  it('runs on Linux, macOS and Windows for pushes and pull requests', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']))
    const matrix = Object.values(workflow.jobs).flatMap((job) => job.strategy?.matrix?.os ?? [job['runs-on']])
    expect(matrix).toEqual(expect.arrayContaining(['ubuntu-latest', 'macos-latest', 'windows-latest']))
  })

  it('installs with npm ci, runs npm test, then the Electron specs against the built app', () => {
    const order = ['npm ci', 'npm test', 'npm run build && npx playwright test e2e/electron']
    for (const command of order) expect(workflowCommands).toContain(command)
    const first = (command: string): number => workflowCommands.indexOf(command)
    expect(first('npm ci')).toBeLessThan(first('npm test'))
    expect(first('npm test')).toBeLessThan(first(order[2]!))
  })

  it('runs the Linux suite under Xvfb, with a real Secret Service available', () => {
    const linux = steps.filter((step) => step.if === "runner.os == 'Linux'")
    expect(linux.some((step) => step.run?.includes('xvfb-run -a npm test'))).toBe(true)
    expect(linux.some((step) => step.run?.includes('gnome-keyring'))).toBe(true)
  })

  it("uses only the README's commands", () => {
    const readme = readmeCommands()
    const missing = workflowCommands.filter(
      (command) => !readme.some((line) => line === command || line.startsWith(`${command} `) || line.split(' && ').includes(command))
    )
    expect(missing, `commands the CI runs that the README does not show: ${missing.join(' | ')}`).toEqual([])
  })

  it("the chrome-sandbox step has an effect: the Electron specs launch with Chromium's sandbox", () => {
    const sandboxStep = steps.find((step) => step.run?.includes('chrome-sandbox'))
    expect(sandboxStep?.run).toMatch(/chmod 4755 node_modules\/electron\/dist\/chrome-sandbox/)
    const launcher = readFileSync(join(ROOT, 'e2e/electron/electron-app.ts'), 'utf8')
    expect(launcher).toMatch(/chromiumSandbox:\s*true/)
  })

  it("runs a Node that Electron's installer accepts", () => {
    const setup = steps.find((step) => step.uses?.startsWith('actions/setup-node'))
    const major = Number(String(setup?.with?.['node-version'] ?? '').split('.')[0])
    const engines =
      (JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { engines?: { node?: string } }).engines
        ?.node ?? ''
    const required = Number(/(\d+)/.exec(engines)?.[1] ?? 0)
    // A major version in setup-node is its newest release, which meets any minor of that major.
    expect(major).toBeGreaterThanOrEqual(required)
  })

  it('reads the repository only', () => {
    const perms = (parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as { permissions: unknown }).permissions
    expect(perms).toEqual({ contents: 'read' })
  })
})
