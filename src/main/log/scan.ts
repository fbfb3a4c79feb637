/**
 * Looks through log folders for secrets that must never be there. Used by the e2e logs scan
 * (e2e/logs-scan.spec.ts) after a real login, create and SSH flow, and usable by hand:
 *   npx tsx src/main/log/scan.ts <dir> <secret>...
 * A secret is looked for as written and as JSON would escape it, in every file under the folder.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface SecretHit {
  file: string
  /** Which secret (by label, never the value itself). */
  label: string
  line: number
}

function filesUnder(dir: string, depth = 6): string[] {
  if (depth === 0 || !existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path, depth - 1) : [path]
  })
}

/** Every line in every file under `dirs` that contains one of `secrets` (label → value). */
export function scanForSecrets(dirs: string[], secrets: Record<string, string>): { files: string[]; hits: SecretHit[] } {
  const files = dirs.flatMap((dir) => filesUnder(dir))
  const hits: SecretHit[] = []
  const needles = Object.entries(secrets)
    .filter(([, value]) => value.length > 0)
    .map(([label, value]) => ({ label, forms: [...new Set([value, JSON.stringify(value).slice(1, -1)])] }))
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n')
    lines.forEach((text, index) => {
      for (const { label, forms } of needles) {
        if (forms.some((form) => text.includes(form))) hits.push({ file, label, line: index + 1 })
      }
    })
  }
  return { files, hits }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, ...values] = process.argv.slice(2)
  if (!dir || values.length === 0) {
    console.error('usage: npx tsx src/main/log/scan.ts <dir> <secret>...')
    process.exit(2)
  }
  const { files, hits } = scanForSecrets([dir], Object.fromEntries(values.map((v, i) => [`secret #${i + 1}`, v])))
  for (const hit of hits) console.log(`${hit.file}:${hit.line}: contains ${hit.label}`)
  console.log(`${files.length} file(s) scanned, ${hits.length} hit(s).`)
  process.exitCode = hits.length > 0 ? 1 : 0
}
