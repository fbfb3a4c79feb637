// The house's layers as one ESLint rule: an import (or export … from, import(), require()) with a
// relative specifier is resolved against the importing file, and refused when it lands in a
// folder or file that file's layer must not use; a bare specifier is refused when it names a
// package the layer keeps out (Electron, outside its adapters). Written here rather than taken from
// eslint-plugin-import-x: that plugin's resolver ships per-platform native bindings, and a lock
// file made on Linux without them fails `npm ci` (and macOS and Windows CI) where the registry
// cannot supply them. Relative specifiers are all this tree uses between its own files
// (scripts/import-graph.ts reads them the same way).
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'

/**
 * @typedef {{
 *   target: string,
 *   from?: string[],
 *   packages?: string[],
 *   except?: RegExp[],
 *   message: string
 * }} Layer
 * `target`: a folder or file (relative to the root) whose files the layer binds. `from`: folders
 * or files they must not import (a `.ts` file also matches the import without its extension).
 * `packages`: bare module names they must not import (`electron` also refuses `electron/main`).
 * `except`: files inside `target` the layer does not bind, by their root-relative path with `/`.
 */

/** Is `file` (absolute) inside `folder` (absolute)? */
function inside(file, folder) {
  const path = relative(folder, file)
  return path === '' || (!path.startsWith('..') && !isAbsolute(path))
}

/** Does the import of `target` (absolute, maybe without extension) land in `place` (a folder, or a file)? */
function lands(target, place) {
  return inside(target, place) || (/\.[cm]?[jt]s$/.test(place) && target === place.replace(/\.[cm]?[jt]s$/, ''))
}

/** Is `specifier` the package `name` or one of its subpaths? */
function names(specifier, name) {
  return specifier === name || specifier.startsWith(`${name}/`)
}

/**
 * An ESLint plugin with one rule, `layers`: for files in a layer's `target` (relative to `root`),
 * imports resolving into any of its `from` places, or naming one of its `packages`, are reported
 * with its `message`. Every form an import takes counts: import, export … from, import(), require().
 * @param {string} root
 * @param {Layer[]} layers
 */
export function layersPlugin(root, layers) {
  const zones = layers.map((layer) => ({
    target: resolve(root, layer.target),
    from: (layer.from ?? []).map((place) => resolve(root, place)),
    packages: layer.packages ?? [],
    except: layer.except ?? [],
    message: layer.message
  }))
  return {
    rules: {
      layers: {
        meta: { type: 'problem', docs: { description: 'Imports stay within the layers the house allows' }, schema: [] },
        create(context) {
          const file = context.filename
          const path = relative(root, file).split(sep).join('/')
          const mine = zones.filter((zone) => inside(file, zone.target) && !zone.except.some((pattern) => pattern.test(path)))
          if (mine.length === 0) return {}
          const check = (source) => {
            if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return
            const specifier = source.value
            const local = specifier.startsWith('.')
            const target = local ? resolve(dirname(file), specifier) : undefined
            for (const zone of mine) {
              const crosses = target
                ? zone.from.some((place) => lands(target, place))
                : zone.packages.some((name) => names(specifier, name))
              if (crosses) context.report({ node: source, message: `“${specifier}” crosses a layer. ${zone.message}` })
            }
          }
          return {
            ImportDeclaration: (node) => check(node.source),
            ExportNamedDeclaration: (node) => check(node.source),
            ExportAllDeclaration: (node) => check(node.source),
            ImportExpression: (node) => check(node.source),
            CallExpression: (node) => {
              if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node.arguments[0])
            }
          }
        }
      }
    }
  }
}
