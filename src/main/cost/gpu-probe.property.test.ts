/**
 * nvidia-smi's answer is whatever the instance prints (#21). Whatever it is, parseGpuQuery
 * answers (never throws), lists at most MAX_GPUS GPUs with every value in range or null, and a
 * bad value on one GPU never changes what is read for the others.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_GPUS } from '../../shared/contract-cost'
import { GPU_OUTPUT_BYTES, MAX_GPU_MEMORY_MIB, parseGpuQuery } from './gpu-probe'

/** Fields near what nvidia-smi prints, and what a hostile one might. */
const field = fc.oneof(
  fc.nat({ max: 100 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.integer().map(String),
  fc.constantFrom('[N/A]', '[Not Supported]', '', ' 87 ', '-50', '1e3', '0x10', '9'.repeat(400), '١٢', '"5"', 'Infinity'),
  fc.string({ maxLength: 12 })
)
const line = fc.tuple(field, field, field).map((fields) => fields.join(', '))
const answer = fc.oneof(
  fc.array(line, { maxLength: 80 }).map((lines) => lines.join('\n')),
  fc.array(line, { maxLength: 80 }).map((lines) => lines.join('\r\n') + '\r\n'),
  fc.string({ maxLength: 2_000 }),
  fc.array(fc.oneof(line, fc.string({ maxLength: 30 })), { maxLength: 80 }).map((lines) => lines.join('\n'))
)

const inRange = (value: number | null, max: number): boolean => value === null || (Number.isFinite(value) && value >= 0 && value <= max)

describe('parseGpuQuery, whatever the instance prints', () => {
  it('never throws; at most MAX_GPUS GPUs; every value null or in range; no answer says why in a few words', () => {
    fc.assert(
      fc.property(answer, (stdout) => {
        const read = parseGpuQuery(stdout)
        if (!read.ok) {
          expect(read.problem.length).toBeLessThan(80)
          return
        }
        expect(read.gpus.length).toBeGreaterThan(0)
        expect(read.gpus.length).toBeLessThanOrEqual(MAX_GPUS)
        for (const gpu of read.gpus) {
          expect(inRange(gpu.utilization, 100)).toBe(true)
          expect(inRange(gpu.memoryUsedMiB, MAX_GPU_MEMORY_MIB)).toBe(true)
          expect(inRange(gpu.memoryTotalMiB, MAX_GPU_MEMORY_MIB)).toBe(true)
          if (gpu.memoryUsedMiB !== null && gpu.memoryTotalMiB !== null) expect(gpu.memoryUsedMiB).toBeLessThanOrEqual(gpu.memoryTotalMiB)
        }
      })
    )
  })

  it('a bad value on one GPU never changes what is read for the others', () => {
    const good = fc.tuple(fc.nat({ max: 100 }), fc.nat({ max: 40_000 }), fc.integer({ min: 40_000, max: 200_000 }))
    fc.assert(
      fc.property(fc.array(good, { minLength: 2, maxLength: MAX_GPUS }), fc.nat(), field, (gpus, pick, junk) => {
        const lines = gpus.map(([load, used, total]) => `${load}, ${used}, ${total}`)
        const spoiled = pick % gpus.length
        // One GPU's load replaced with anything at all (no comma: the line keeps its three fields).
        lines[spoiled] = `${junk.replaceAll(',', ' ').replaceAll(/[\r\n]/g, ' ')}, ${gpus[spoiled]![1]}, ${gpus[spoiled]![2]}`
        const read = parseGpuQuery(lines.join('\n'))
        expect(read.ok).toBe(true)
        if (!read.ok) return
        for (const [index, [load, used, total]] of gpus.entries()) {
          if (index === spoiled) continue
          expect(read.gpus[index]).toEqual({ utilization: load, memoryUsedMiB: used, memoryTotalMiB: total })
        }
      })
    )
  })

  it('an answer longer than GPU_OUTPUT_BYTES is no answer, however well formed', () => {
    fc.assert(
      fc.property(fc.integer({ min: GPU_OUTPUT_BYTES + 1, max: GPU_OUTPUT_BYTES * 4 }), (size) => {
        expect(parseGpuQuery('0, 0, 1\n'.repeat(Math.ceil(size / 8)))).toMatchObject({ ok: false })
      }),
      { numRuns: 20 }
    )
  })
})
