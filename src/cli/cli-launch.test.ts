/**
 * `cloud-tray launch` against the Sandbox, with launch templates answered through the seam the
 * command line reads them by (`templates.list`; issue #26 puts it in the app): the instance is
 * made through the app's one create path (the create-once guard), exactly once, also when the
 * cloud's answer is lost, and --wait ends as the start ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateInstanceRequest } from '../shared/create-request'
import type { TemplateSeam } from './commands/launch'
import { buildCli } from './testing/built-cli'
import { startCliSandbox, type CliSandbox } from './testing/cli-sandbox'

const request = (name: string, imageId = 'img-pytorch-2.5-cuda12.4'): CreateInstanceRequest => ({
  name,
  imageId,
  instanceTypeId: 'gpu-rtx4090-1x',
  region: '6f1c2a4e-8d3b-4c5a-9e7f-1a2b3c4d5e6f',
  billing: { chargeMode: 'perHour', duration: 1 },
  remoteStorages: [],
  instanceConfiguration: { enableCommonData: false, enableDocker: false, initScript: '' },
  nodePorts: [8888]
})

const TEMPLATES: TemplateSeam[] = [
  { templateId: 'tpl-1', name: 'gpu-dev', request: request('gpu-dev') },
  { templateId: 'tpl-2', name: 'gpu-stuck', request: request('stuck', 'img-private-unreachable') },
  { templateId: 'tpl-3', name: 'cpu-box', request: request('cpu') }
]

describe('cloud-tray launch from a template', () => {
  let sandbox: CliSandbox
  const named = (name: string) =>
    sandbox.shell
      .emulator()
      .instances()
      .filter((instance) => instance.instanceSpecInfo.name === name)

  beforeAll(async () => {
    buildCli()
    sandbox = await startCliSandbox({ bootMs: 600, seams: { 'templates.list': () => TEMPLATES } })
  }, 60_000)
  afterAll(async () => {
    await sandbox?.close()
  })

  it('asks first, and where nobody can answer, launches nothing without --yes', async () => {
    const run = await sandbox.cli(['launch', '--template', 'gpu-dev'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(
      /^Launch «gpu-dev» from “gpu-dev”: gpu-rtx4090-1x \(1 × RTX-4090\) in us-west-1, \$0\.49\/h\? It bills from now until you stop it\. .*--yes/
    )
    expect(named('gpu-dev')).toEqual([])
  })

  it('creates exactly one instance, also when the cloud’s answer is lost, and with --wait exits 0 once it is Running', async () => {
    // The create is carried out but its answer never arrives: the app's create-once guard finds it.
    sandbox.shell.emulator().faults.loseNextAnswers(1)
    const run = await sandbox.cli(['launch', '--template', 'gpu-d', '--name', 'dev-1', '--wait', '--yes'], { timeoutMs: 90_000 })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const made = named('dev-1')
    expect(made).toHaveLength(1)
    expect(run.stdout).toBe(`${made[0]!.instanceMetadata.instanceId}\n`)
    expect(made[0]!.instanceRuntimeInfo.status).toBe('Running')
  }, 90_000)

  it('ends --wait with exit 8 when the start is stuck, saying it keeps billing', async () => {
    const run = await sandbox.cli(['launch', '--template', 'gpu-stuck', '--wait', '--yes'], { timeoutMs: 90_000 })
    expect(run.code).toBe(8)
    expect(run.stderr).toMatch(
      /^«stuck» is stuck starting \(.*\)\. It keeps billing while it waits: delete it with `cloud-tray terminate notebook-/
    )
    expect(named('stuck')).toHaveLength(1)
  }, 90_000)

  it('names the templates there are when none matches (exit 4), and refuses an ambiguous start (exit 6)', async () => {
    const missing = await sandbox.cli(['launch', '--template', 'nope', '--yes'])
    expect(missing).toMatchObject({
      code: 4,
      stderr: 'No launch template is named “nope”. There are: “gpu-dev”, “gpu-stuck”, “cpu-box”.\n'
    })
    expect((await sandbox.cli(['launch', '--template', 'gpu', '--yes'])).code).toBe(6)
  })
})
