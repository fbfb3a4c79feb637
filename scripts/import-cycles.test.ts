/**
 * No import circle anywhere in src/: a circle means two modules cannot be understood, tested or
 * moved one without the other. Every relative import counts, `import type` included (a type
 * circle still ties the files together). A small scanner rather than a dependency such as
 * madge: relative specifiers are all this tree uses, and this reads them in a few lines.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
const SOURCES = /\.(ts|svelte)$/
const SPECIFIER = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|(?:^|\s)import\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => SOURCES.test(file) && !/\.test\.ts$/.test(file))
    .map((file) => join(dir, file))
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return undefined
}

/** file → the files it imports. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const targets: string[] = []
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = resolveImport(file, (match[1] ?? match[2] ?? match[3])!)
      if (target) targets.push(target)
    }
    graph.set(file, targets)
  }
  return graph
}

/** Every strongly connected group of more than one file (Tarjan), or a file importing itself. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string): void => {
    order.set(node, index)
    low.set(node, index++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, order.get(next)!))
      }
    }
    if (low.get(node) !== order.get(node)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      group.push(member)
    } while (member !== node)
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort())
  }
  for (const node of graph.keys()) if (!order.has(node)) visit(node)
  return found
}

describe('imports', () => {
  it('finds a circle when there is one', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])
    expect(cycles(graph)).toEqual([['a', 'b', 'c']])
  })

  it('has no circle in src/', () => {
    const graph = importGraph(sourceFiles(join(ROOT, 'src')))
    const found = cycles(graph).map((group) => group.map((file) => relative(ROOT, file)))
    expect(found).toEqual([])
  })
})
