/**
 * What each source file imports, read with a small scanner rather than a dependency such as
 * madge: relative specifiers are all this tree uses between its own files, and this reads them
 * in a few lines. Every import counts, `import type` included. Used by import-cycles.test.ts
 * (the layers and the testing/ rule are ESLint's: eslint.config.js).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

export const ROOT = join(import.meta.dirname, '..')
const SOURCES = /\.(ts|svelte)$/
const SPECIFIER =
  /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|\s)import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm

/** Every .ts and .svelte file under `dir`, test files included. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => SOURCES.test(file))
    .map((file) => join(dir, file))
}

export const isTestFile = (file: string): boolean => /\.test\.ts$/.test(file)

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return undefined
}

export interface FileImports {
  /** Our own files it imports (relative specifiers, resolved). */
  files: string[]
  /** Packages it imports by name (`vitest`, `node:fs`, `@xterm/xterm`, …). */
  packages: string[]
}

export function importsOf(file: string): FileImports {
  const found: FileImports = { files: [], packages: [] }
  for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
    const specifier = (match[1] ?? match[2] ?? match[3])!
    if (specifier.startsWith('.')) {
      const target = resolveImport(file, specifier)
      if (target) found.files.push(target)
    } else {
      found.packages.push(specifier)
    }
  }
  return found
}

/** file → the files it imports. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, importsOf(file).files]))
}
