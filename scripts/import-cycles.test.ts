/**
 * No import circle anywhere in src/: a circle means two modules cannot be understood, tested or
 * moved one without the other. Every relative import counts, `import type` included (a type
 * circle still ties the files together); the scanner is import-graph.ts.
 */
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, importGraph, isTestFile, sourceFiles } from './import-graph'

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
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']]
    ])
    expect(cycles(graph)).toEqual([['a', 'b', 'c']])
  })

  it('has no circle in src/', () => {
    const graph = importGraph(sourceFiles(join(ROOT, 'src')).filter((file) => !isTestFile(file)))
    const found = cycles(graph).map((group) => group.map((file) => relative(ROOT, file)))
    expect(found).toEqual([])
  })
})
