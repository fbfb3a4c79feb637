/**
 * Only thin adapters touch Electron: files named *adapter*.ts or *electron*.ts, and index.ts.
 * Everything else in main runs (and is tested) in plain Node.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const mainDir = import.meta.dirname
const IMPORTS_ELECTRON = /(?:from\s+['"]electron(?:\/[\w/]+)?['"]|require\(\s*['"]electron['"]\s*\)|import\(\s*['"]electron['"]\s*\))/

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

describe('electron imports in src/main', () => {
  it('only adapter files and index.ts import electron', () => {
    const offenders = sources(mainDir)
      .filter((file) => IMPORTS_ELECTRON.test(readFileSync(file, 'utf8')))
      .filter((file) => !/adapter|electron/.test(basename(file)) && basename(file) !== 'index.ts')
      .map((file) => relative(mainDir, file))
    expect(offenders).toEqual([])
  })

  it('the pattern catches the ways a file can import electron', () => {
    for (const line of ["import { app } from 'electron'", 'import type { WebContents } from "electron"', "const e = require('electron')"]) {
      expect(IMPORTS_ELECTRON.test(line)).toBe(true)
    }
    expect(IMPORTS_ELECTRON.test("import x from 'electron-builder'")).toBe(false)
  })
})
