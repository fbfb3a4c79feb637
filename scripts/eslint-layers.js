// The house's layers as one ESLint rule: an import (or export … from, or import()) with a
// relative specifier is resolved against the importing file, and refused when it lands in a
// folder that file's layer must not use. Written here rather than taken from
// eslint-plugin-import-x: that plugin's resolver ships per-platform native bindings, and a lock
// file made on Linux without them fails `npm ci` (and macOS and Windows CI) where the registry
// cannot supply them. Relative specifiers are all this tree uses between its own files
// (scripts/import-graph.ts reads them the same way).
import { dirname, isAbsolute, relative, resolve } from 'node:path'

/** @typedef {{ target: string, from: string[], message: string }} Layer */

/** Is `file` (absolute) inside `folder` (absolute)? */
function inside(file, folder) {
  const path = relative(folder, file)
  return path === '' || (!path.startsWith('..') && !isAbsolute(path))
}

/**
 * An ESLint plugin with one rule, `layers`: for files in a layer's `target` (relative to `root`),
 * imports resolving into any of its `from` folders are reported with its `message`.
 * @param {string} root
 * @param {Layer[]} layers
 */
export function layersPlugin(root, layers) {
  const zones = layers.map((layer) => ({
    target: resolve(root, layer.target),
    from: layer.from.map((folder) => resolve(root, folder)),
    message: layer.message
  }))
  return {
    rules: {
      layers: {
        meta: { type: 'problem', docs: { description: 'Imports stay within the layers the house allows' }, schema: [] },
        create(context) {
          const file = context.filename
          const mine = zones.filter((zone) => inside(file, zone.target))
          if (mine.length === 0) return {}
          const check = (source) => {
            if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return
            const target = resolve(dirname(file), source.value)
            for (const zone of mine) {
              if (zone.from.some((folder) => inside(target, folder))) {
                context.report({ node: source, message: `“${source.value}” crosses a layer. ${zone.message}` })
              }
            }
          }
          return {
            ImportDeclaration: (node) => check(node.source),
            ExportNamedDeclaration: (node) => check(node.source),
            ExportAllDeclaration: (node) => check(node.source),
            ImportExpression: (node) => check(node.source)
          }
        }
      }
    }
  }
}
