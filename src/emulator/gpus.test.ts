import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { posixShellMissing, skipBecause } from '../shared/node/testing/platform-support'
import { DEFAULT_CATALOG } from './catalog'
import { FieldError } from './fields'
import { GpuBoard, memoryOfType, nvidiaSmiTable, readGpuSetting } from './gpus'
import { writeGpuFiles } from './reach/gpu-files'

const run = promisify(execFile)
const h100x8 = DEFAULT_CATALOG.instanceTypes.find((type) => type.instanceTypeId === 'gpu-h100-sxm-8x')!

describe('GpuBoard', () => {
  it('an instance’s GPUs are its type’s, idle, until set; a stop resets them', () => {
    const board = new GpuBoard()
    const idle = board.gpusOf('i-1', h100x8)
    expect(idle).toHaveLength(8)
    expect(idle[3]).toMatchObject({ index: 3, name: h100x8.gpu.type, utilization: 0, memoryUsedMiB: 0, memoryTotalMiB: 80 * 1024 })
    expect(idle[3]!.uuid).toMatch(/^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(board.gpusOf('i-1', h100x8)[3]!.uuid).toBe(idle[3]!.uuid)
    board.set('i-1', [{ utilization: 90, memoryUsedMiB: 1, memoryTotalMiB: 2 }])
    expect(board.gpusOf('i-1', h100x8).map((gpu) => gpu.utilization)).toEqual([90])
    board.clear('i-1')
    expect(board.gpusOf('i-1', h100x8)).toHaveLength(8)
    expect(memoryOfType('RTX 4090')).toBe(24 * 1024)
  })
})

describe('readGpuSetting (POST /__emulator/gpu)', () => {
  it.each([
    [
      'every GPU the same',
      { utilization: 40, memoryUsedMiB: 100, memoryTotalMiB: 200 },
      2,
      [
        { utilization: 40, memoryUsedMiB: 100, memoryTotalMiB: 200 },
        { utilization: 40, memoryUsedMiB: 100, memoryTotalMiB: 200 }
      ]
    ],
    ['memory left out', { utilization: 5 }, 1, [{ utilization: 5, memoryUsedMiB: 0, memoryTotalMiB: 81920 }]],
    [
      'one entry per GPU',
      { gpus: [{ utilization: 1 }, { utilization: 99, memoryUsedMiB: 7 }] },
      8,
      [
        { utilization: 1, memoryUsedMiB: 0, memoryTotalMiB: 81920 },
        { utilization: 99, memoryUsedMiB: 7, memoryTotalMiB: 81920 }
      ]
    ]
  ])('%s', (_name, body, count, expected) => {
    expect(readGpuSetting(body, count, 81920)).toEqual(expected)
  })

  it.each([
    [{ utilization: 101 }, 'utilization'],
    [{ utilization: 5.5 }, 'utilization'],
    [{ utilization: 5, memoryUsedMiB: 300, memoryTotalMiB: 200 }, 'memoryUsedMiB'],
    [{ gpus: [] }, 'gpus'],
    [{ gpus: [{ utilization: 'busy' }] }, 'gpus.0.utilization'],
    [{}, 'utilization']
  ])('refuses %o, naming %s', (body, field) => {
    expect(() => readGpuSetting(body, 1, 81920)).toThrow(FieldError)
    try {
      readGpuSetting(body, 1, 81920)
    } catch (error) {
      expect((error as FieldError).field).toBe(field)
    }
  })

  it('a type without GPUs has nothing to set', () => {
    expect(() => readGpuSetting({ utilization: 1 }, 0, 1)).toThrow(/without GPUs/)
  })
})

describe('the plain table', () => {
  it('keeps nvidia-smi’s columns for every line, and lists what runs', () => {
    const board = new GpuBoard()
    board.set('i-1', [
      { utilization: 0, memoryUsedMiB: 0, memoryTotalMiB: 81920 },
      { utilization: 87, memoryUsedMiB: 40960, memoryTotalMiB: 81920 }
    ])
    const table = nvidiaSmiTable(board.gpusOf('i-1', h100x8))
    const lines = table
      .trimEnd()
      .split('\n')
      .filter((line) => line.startsWith('|') || line.startsWith('+'))
    expect(new Set(lines.map((line) => line.length))).toEqual(new Set([91]))
    expect(table).toMatch(/\|\s+87%\s+Default \|/)
    expect(table).toMatch(/40960MiB \/ 81920MiB/)
    expect(table).toMatch(/python\s+40960MiB/)
    expect(nvidiaSmiTable([])).toBe('No devices were found\n')
  })
})

describe('the nvidia-smi script', () => {
  const noShell = skipBecause(posixShellMissing(), 'the emulated nvidia-smi (a POSIX sh and awk script)')
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nvidia-smi-'))
    const board = new GpuBoard()
    board.set('i-1', [
      { utilization: 3, memoryUsedMiB: 1024, memoryTotalMiB: 81920 },
      { utilization: 97, memoryUsedMiB: 70000, memoryTotalMiB: 81920 }
    ])
    await writeGpuFiles(dir, board.gpusOf('i-1', h100x8))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  const smi = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(join(dir, 'nvidia-smi'), args)
      return { code: 0, stdout, stderr }
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string }
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
    }
  }

  it.skipIf(noShell)('answers the app’s query', async () => {
    expect(await smi('--query-gpu=utilization.gpu,memory.used,memory.total', '--format=csv,noheader,nounits')).toEqual({
      code: 0,
      stdout: '3, 1024, 81920\n97, 70000, 81920\n',
      stderr: ''
    })
  })

  it.skipIf(noShell)('with headers and units, any known fields in any order', async () => {
    const { stdout } = await smi('--query-gpu=index,name,memory.free,utilization.gpu', '--format=csv')
    expect(stdout).toBe(
      `index, name, memory.free [MiB], utilization.gpu [%]\n0, ${h100x8.gpu.type}, 80896 MiB, 3 %\n1, ${h100x8.gpu.type}, 11920 MiB, 97 %\n`
    )
  })

  it.skipIf(noShell)('refuses a field it does not know, as nvidia-smi does', async () => {
    const answer = await smi('--query-gpu=utilization.gpu,fan.speedy', '--format=csv')
    expect(answer.code).toBe(2)
    expect(answer.stderr).toBe('Field "fan.speedy" is not a valid field to query.\n')
    expect(answer.stdout).toBe('')
  })

  it.skipIf(noShell)('plain: the date and the table', async () => {
    const { stdout, code } = await smi()
    expect(code).toBe(0)
    expect(stdout.split('\n')[0]).toMatch(/^\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4}$/)
    expect(stdout).toContain('NVIDIA-SMI 550.54.15 (Cloud Tray emulator)')
    expect(stdout).toMatch(/\|\s+97%\s+Default \|/)
  })
})
