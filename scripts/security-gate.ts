/**
 * The security gate: runs Electronegativity over the app's sources and fails on anything it finds
 * that is not suppressed with a written reason. Its own CLI exits 0 with findings, so we call its
 * API and count. `npx tsx scripts/security-gate.ts [dir]` prints the report; the vitest wrapper
 * (security-gate.test.ts) runs it in `npm test`.
 *
 * What it adds to a plain Electronegativity run:
 *   - every `eng-disable` must carry a `why:` comment and name a real check (security-suppressions.ts);
 *   - .svelte components are split into script and markup so they are scanned too, plus our own
 *     SVELTE_RAW_HTML_CHECK for `{@html}` (security-svelte.ts);
 *   - files it cannot parse are failures, not silent skips;
 *   - it never leaves loopback: the online-only AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK is excluded and
 *     its translation download is answered locally with "not found" so it uses its bundled English.
 */
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkSuppressions, findSuppressions } from './security-suppressions'
import { findRawHtml, splitSvelte } from './security-svelte'

const require = createRequire(import.meta.url)
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

export const SVELTE_RAW_HTML_CHECK = 'SVELTE_RAW_HTML_CHECK'
/** Needs the internet (Electron's release feed); the Electron version is pinned in package.json instead. */
const ONLINE_ONLY_CHECK = 'AvailableSecurityFixesGlobalCheck'
const SCANNED_EXTENSIONS = /\.(js|jsx|ts|tsx|html|htm|svelte)$/i

export interface Finding {
  check: string
  /** Path relative to the repository root. */
  file: string
  line: number
  column: number
  severity: string
  confidence: string
  description: string
  sample: string
}

export interface GateReport {
  findings: Finding[]
  /** Suppressions without a `why:`, or naming no real check. */
  suppressionProblems: { file: string; line: number; message: string }[]
  /** Files Electronegativity could not parse: unscanned code is unchecked code. */
  parseErrors: { file: string; message: string }[]
  filesScanned: number
  checksRun: number
}

interface ElectronegativityIssue {
  id: string
  file: string
  location: { line: number; column: number }
  severity: { name: string }
  confidence: { name: string }
  description: string
  sample?: string
}

interface ElectronegativityResult {
  globalChecks: number
  atomicChecks: number
  errors: { file: string; message: string; tolerable: boolean }[]
  issues: ElectronegativityIssue[]
}

type RunOptions = {
  input: string
  excludeFromScan?: string[]
  electronVersionOverride?: string
  isRelative?: boolean
}
type Run = (options: RunOptions) => Promise<ElectronegativityResult>

let offlineInstalled = false

/**
 * Electronegativity fetches translations with `got` before every run. Put a stand-in for that one
 * module in Node's require cache (for Electronegativity's copy only) answering 404, which its
 * code treats as "keep the bundled English".
 */
function keepElectronegativityOffline(): void {
  if (offlineInstalled) return
  const i18nPath = require.resolve('@doyensec/electronegativity/dist/locales/i18n.js')
  const gotPath = require.resolve('got', { paths: [dirname(i18nPath)] })
  const stub = new Module(gotPath)
  stub.filename = gotPath
  stub.loaded = true
  stub.exports = Object.assign(async () => ({ statusCode: 404, body: '' }), { default: undefined })
  ;(stub.exports as { default: unknown }).default = stub.exports
  require.cache[gotPath] = stub
  offlineInstalled = true
}

function loadElectronegativity(): Run {
  keepElectronegativityOffline()
  return require('@doyensec/electronegativity') as Run
}

/** Every check id and class name Electronegativity knows, upper-cased, plus ours. */
export async function knownCheckNames(): Promise<Set<string>> {
  keepElectronegativityOffline()
  // Check constructors read their descriptions through the i18n global: set it up first.
  const initI18n = require('@doyensec/electronegativity/dist/locales/i18n.js') as () => Promise<void>
  await initI18n()
  const names = new Set<string>([SVELTE_RAW_HTML_CHECK])
  const atomic = require('@doyensec/electronegativity/dist/finder/checks/AtomicChecks/index.js') as {
    CHECKS: (new () => { id: string })[]
  }
  const global = require('@doyensec/electronegativity/dist/finder/checks/GlobalChecks/index.js') as {
    GLOBAL_CHECKS: (new () => { id: string })[]
  }
  for (const Check of [...atomic.CHECKS, ...global.GLOBAL_CHECKS]) {
    names.add(Check.name.toUpperCase())
    names.add(new Check().id.toUpperCase())
  }
  return names
}

function electronVersion(): string {
  const pkg = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')) as { version: string }
  return pkg.version
}

function listSources(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) for (const source of listSources(path)) out.push(source)
    else if (SCANNED_EXTENSIONS.test(entry.name)) out.push(path)
  }
  return out
}

function toFinding(issue: ElectronegativityIssue, file: string): Finding {
  return {
    check: issue.id,
    file,
    line: issue.location.line,
    column: issue.location.column,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    description: issue.description,
    sample: issue.sample ?? ''
  }
}

/**
 * Scan `srcDir` (default: the repository's `src`). Paths in the report are relative to `root`.
 */
export async function runSecurityGate(options: { srcDir?: string; root?: string } = {}): Promise<GateReport> {
  const root = resolve(options.root ?? REPO_ROOT)
  const srcDir = resolve(options.srcDir ?? join(root, 'src'))
  const run = loadElectronegativity()
  const version = electronVersion()
  const known = await knownCheckNames()
  const report: GateReport = { findings: [], suppressionProblems: [], parseErrors: [], filesScanned: 0, checksRun: 0 }
  const rel = (path: string): string => relative(root, path).split(sep).join('/')

  // 1. The sources as they are: atomic and global checks.
  const main = await run({ input: srcDir, excludeFromScan: [ONLINE_ONLY_CHECK], electronVersionOverride: version })
  report.checksRun = main.globalChecks + main.atomicChecks
  for (const issue of main.issues) {
    report.findings.push(toFinding(issue, issue.file === 'N/A' ? `${rel(srcDir)} (whole app)` : rel(issue.file)))
  }
  for (const error of main.errors) {
    if (!error.tolerable) report.parseErrors.push({ file: rel(error.file), message: error.message })
  }

  // 2. Svelte components, split into what Electronegativity reads. Global checks are left out
  //    here: they judge the whole app, and step 1 already did.
  const sources = listSources(srcDir)
  const svelteFiles = sources.filter((f) => f.endsWith('.svelte'))
  if (svelteFiles.length > 0) {
    const scratch = mkdtempSync(join(tmpdir(), 'security-gate-svelte-'))
    try {
      const origin = new Map<string, string>()
      for (const file of svelteFiles) {
        const parts = splitSvelte(readFileSync(file, 'utf8'))
        const base = join(scratch, relative(srcDir, file))
        mkdirSync(dirname(base), { recursive: true })
        writeFileSync(`${base}.ts`, parts.script)
        writeFileSync(`${base}.html`, parts.markup)
        origin.set(resolve(`${base}.ts`), file)
        origin.set(resolve(`${base}.html`), file)
      }
      const globals = (
        require('@doyensec/electronegativity/dist/finder/checks/GlobalChecks/index.js') as {
          GLOBAL_CHECKS: { name: string }[]
        }
      ).GLOBAL_CHECKS.map((c) => c.name)
      const svelte = await run({ input: scratch, excludeFromScan: globals, electronVersionOverride: version })
      for (const issue of svelte.issues) {
        const file = origin.get(resolve(issue.file))
        report.findings.push(toFinding(issue, file ? rel(file) : rel(issue.file)))
      }
      for (const error of svelte.errors) {
        if (error.tolerable) continue
        const file = origin.get(resolve(error.file))
        report.parseErrors.push({ file: file ? rel(file) : rel(error.file), message: error.message })
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }

  // 3. Our own Svelte check, and the justification rule for every suppression.
  for (const file of sources) {
    const text = readFileSync(file, 'utf8')
    report.filesScanned++
    if (file.endsWith('.svelte')) {
      const suppressedLines = new Set(
        findSuppressions(text)
          .filter((s) => s.checks.some((c) => c.toUpperCase() === SVELTE_RAW_HTML_CHECK))
          .map((s) => s.line)
      )
      for (const use of findRawHtml(text)) {
        if (suppressedLines.has(use.line)) continue
        report.findings.push({
          check: SVELTE_RAW_HTML_CHECK,
          file: rel(file),
          line: use.line,
          column: use.column,
          severity: 'HIGH',
          confidence: 'CERTAIN',
          description: '{@html} inserts raw HTML; render text instead, or justify why this HTML is trusted.',
          sample: use.sample
        })
      }
    }
    for (const problem of checkSuppressions(text, known)) {
      report.suppressionProblems.push({ file: rel(file), ...problem })
    }
  }

  return report
}

export function gatePassed(report: GateReport): boolean {
  return report.findings.length + report.suppressionProblems.length + report.parseErrors.length === 0
}

export function formatReport(report: GateReport): string {
  const lines: string[] = [`Security gate: ${report.filesScanned} files, ${report.checksRun} Electronegativity checks.`]
  for (const f of report.findings) {
    lines.push(`  ${f.check} (${f.severity}, ${f.confidence}) ${f.file}:${f.line}:${f.column}`)
    lines.push(`      ${f.description}`)
    if (f.sample) lines.push(`      > ${f.sample.slice(0, 160)}`)
  }
  for (const p of report.suppressionProblems) lines.push(`  SUPPRESSION ${p.file}:${p.line}  ${p.message}`)
  for (const e of report.parseErrors) lines.push(`  UNPARSED ${e.file}: ${e.message}`)
  if (gatePassed(report)) lines.push('No findings.')
  else {
    lines.push(
      `${report.findings.length} finding(s), ${report.suppressionProblems.length} suppression problem(s), ` +
        `${report.parseErrors.length} unparsed file(s). Fix the code, or suppress on the finding's line with ` +
        `/* eng-disable CHECK_ID */ and a "why: <reason>" comment beside it.`
    )
  }
  return lines.join('\n')
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = await runSecurityGate(process.argv[2] ? { srcDir: process.argv[2], root: process.cwd() } : {})
  console.log(formatReport(report))
  process.exitCode = gatePassed(report) ? 0 : 1
}
