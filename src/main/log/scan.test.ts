import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { scanForSecrets } from './scan'

const dir = mkdtempSync(join(tmpdir(), 'log-scan-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('scanForSecrets', () => {
  it('finds a secret as written and as JSON escapes it, by label and line', () => {
    mkdirSync(join(dir, 'logs'))
    writeFileSync(join(dir, 'logs', 'main.log'), 'ok\n{"m":"pass \\"quoted\\" word"}\n')
    writeFileSync(join(dir, 'logs', 'main.log.1'), 'token tok-123 here\n')
    const { files, hits } = scanForSecrets([dir], { token: 'tok-123', password: 'pass "quoted" word', unused: 'zzz' })
    expect(files).toHaveLength(2)
    expect(hits.map((h) => `${h.label}@${h.line}`).sort()).toEqual(['password@2', 'token@1'])
  })

  it('reports nothing for a clean folder and a missing one', () => {
    expect(scanForSecrets([join(dir, 'missing')], { token: 'tok-123' }).hits).toEqual([])
  })
})
