/**
 * The gate in `npm test`: first proved on small fixture apps (it must catch what it claims to
 * catch), then run over the real `src/`.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { formatReport, gatePassed, knownCheckNames, runSecurityGate, SVELTE_RAW_HTML_CHECK } from './security-gate'

const scratch = mkdtempSync(join(tmpdir(), 'security-gate-test-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function app(name: string, files: Record<string, string>): string {
  const root = join(scratch, name)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, 'src', path)), { recursive: true })
    writeFileSync(join(root, 'src', path), text)
  }
  return root
}

const NODE_WINDOW = (suffix: string): string =>
  [
    "import { BrowserWindow } from 'electron'",
    'export const win = new BrowserWindow({',
    `  webPreferences: { nodeIntegration: true } ${suffix}`,
    '})',
    ''
  ].join('\n')

const checksAt = (report: Awaited<ReturnType<typeof runSecurityGate>>, file: string): string[] =>
  report.findings.filter((f) => f.file === file).map((f) => `${f.check}@${f.line}`)

describe('check names', () => {
  // First in the file on purpose: it must work before any scan has run (it once did not).
  it('knows the checks by id and by class name', async () => {
    const known = await knownCheckNames()
    expect(known.has('PRELOAD_JS_CHECK')).toBe(true)
    expect(known.has('PRELOADJSCHECK')).toBe(true)
    expect(known.has('LIMIT_NAVIGATION_GLOBAL_CHECK')).toBe(true)
  })
})

describe('security gate on fixture apps', () => {
  it('finds nodeIntegration turned on, with file and line', async () => {
    const root = app('bad', { 'main/window.ts': NODE_WINDOW('') })
    const report = await runSecurityGate({ root })
    expect(checksAt(report, 'src/main/window.ts')).toContain('NODE_INTEGRATION_JS_CHECK@3')
    expect(gatePassed(report)).toBe(false)
    expect(formatReport(report)).toContain('src/main/window.ts:3')
  })

  it('accepts a suppression that says why', async () => {
    const root = app('justified', {
      'main/window.ts': NODE_WINDOW('// eng-disable NODE_INTEGRATION_JS_CHECK why: fixture proving justified suppressions pass')
    })
    const report = await runSecurityGate({ root })
    expect(checksAt(report, 'src/main/window.ts')).not.toContain('NODE_INTEGRATION_JS_CHECK@3')
    expect(report.suppressionProblems).toEqual([])
  })

  it('fails a suppression that does not say why', async () => {
    const root = app('unjustified', { 'main/window.ts': NODE_WINDOW('// eng-disable NODE_INTEGRATION_JS_CHECK') })
    const report = await runSecurityGate({ root })
    expect(report.suppressionProblems).toEqual([
      { file: 'src/main/window.ts', line: 3, message: expect.stringContaining('no justification') }
    ])
    expect(gatePassed(report)).toBe(false)
  })

  it('scans Svelte components, pointing at the component', async () => {
    const root = app('svelte', {
      'renderer/View.svelte': [
        '<script lang="ts">',
        '  let { html }: { html: string } = $props()',
        '  eval("1 + " + html)',
        '</script>',
        '',
        '<div>{@html html}</div>',
        '<p>{@html html}</p> <!-- eng-disable SVELTE_RAW_HTML_CHECK --> <!-- why: fixture proving suppression in markup -->',
        ''
      ].join('\n')
    })
    const report = await runSecurityGate({ root })
    const found = checksAt(report, 'src/renderer/View.svelte')
    expect(found).toContain('DANGEROUS_FUNCTIONS_JS_CHECK@3')
    expect(found).toContain(`${SVELTE_RAW_HTML_CHECK}@6`)
    expect(found).not.toContain(`${SVELTE_RAW_HTML_CHECK}@7`)
    expect(report.suppressionProblems).toEqual([])
  })
})

describe('security gate on src/', () => {
  it('has no unjustified findings', async () => {
    const report = await runSecurityGate()
    expect(report.filesScanned).toBeGreaterThan(10)
    // The report names each finding, its line, and what to do: printed on failure.
    expect(gatePassed(report), formatReport(report)).toBe(true)
  })
})
