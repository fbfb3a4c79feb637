/**
 * `cloud-tray launch` against the Sandbox, from launch templates saved in the app as the window
 * saves them (`templates.save`, #26): the instance is made through the app's one create path (the
 * create-once guard), exactly once, also when the cloud's answer is lost; --wait ends as the
 * start ended; the region is the first of the template's that has stock today.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TemplateInput } from '../shared/contract-launch'
import type { CreateInstanceRequest } from '../shared/create-request'
import { buildCli } from './testing/built-cli'
import { startCliSandbox, type CliSandbox } from './testing/cli-sandbox'

// The emulator's default catalog (src/emulator/catalog.ts): the 8-GPU H100 is out of stock in US West.
const US_WEST = '6f1c2a4e-8d3b-4c5a-9e7f-1a2b3c4d5e6f'
const SINGAPORE = '0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b'

const request = (name: string, instanceTypeId = 'gpu-rtx4090-1x', imageId = 'img-pytorch-2.5-cuda12.4'): CreateInstanceRequest => ({
  name,
  imageId,
  instanceTypeId,
  region: US_WEST,
  billing: { chargeMode: 'perHour', duration: 1 },
  remoteStorages: [],
  instanceConfiguration: { enableCommonData: false, enableDocker: false, initScript: '' },
  nodePorts: [8888]
})

const template = (name: string, spec: CreateInstanceRequest, regions = [US_WEST]): TemplateInput => ({
  name,
  spec: { request: spec, regions },
  relaunch: null
})

describe('cloud-tray launch from a template', () => {
  let sandbox: CliSandbox
  const named = (name: string) =>
    sandbox.shell
      .emulator()
      .instances()
      .filter((instance) => instance.instanceSpecInfo.name === name)

  beforeAll(async () => {
    buildCli()
    sandbox = await startCliSandbox({ bootMs: 600 })
    for (const each of [
      template('gpu-dev', request('gpu-dev')),
      template('gpu-stuck', request('stuck', 'gpu-rtx4090-1x', 'img-private-unreachable')),
      template('cpu-box', request('cpu', 'cpu-8c-32g')),
      template('big-anywhere', request('big', 'gpu-h100-sxm-8x'), [US_WEST, SINGAPORE]),
      template('big-west', request('big-west', 'gpu-h100-sxm-8x'))
    ])
      await sandbox.call('templates.save', each)
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
    // The template itself is unchanged: --name named this launch only.
    expect(named('gpu-dev')).toEqual([])
  }, 90_000)

  it('shows and launches in the first of the template’s regions with stock today', async () => {
    const asked = await sandbox.cli(['launch', '--template', 'big-anywhere'])
    expect(asked.code).toBe(2)
    expect(asked.stderr).toMatch(
      /^Launch «big» from “big-anywhere”: gpu-h100-sxm-8x \(8 × H100-SXM-80GB\) in ap-southeast-1, \$19\.92\/h\?/
    )
    const run = await sandbox.cli(['launch', '--template', 'big-anywhere', '--yes'])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    const made = named('big')
    expect(made).toHaveLength(1)
    expect(run.stdout).toBe(`${made[0]!.instanceMetadata.instanceId}\n`)
    expect(made[0]!.instanceSpecInfo.regionInfo.regionId).toBe(SINGAPORE)
  })

  it('refuses a template out of stock in every region it accepts (exit 5), and launches nothing', async () => {
    const run = await sandbox.cli(['launch', '--template', 'big-west', '--yes'])
    expect(run.code).toBe(5)
    expect(run.stderr).toMatch(/^gpu-h100-sxm-8x \(8 × H100-SXM-80GB\) in us-west-1 is out of stock today; nothing was launched\./)
    expect(named('big-west')).toEqual([])
  })

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
    expect(missing.code).toBe(4)
    expect(missing.stderr).toMatch(/^No launch template is named “nope”\. There are: (“[a-z-]+”(, )?){5}\.\n$/)
    expect((await sandbox.cli(['launch', '--template', 'gpu', '--yes'])).code).toBe(6)
  })
})
