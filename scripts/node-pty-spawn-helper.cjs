#!/usr/bin/env node
// postinstall: gives node-pty's `spawn-helper` its execute bit back. node-pty 1.1's macOS
// prebuilds ship it as 0644 (microsoft/node-pty#850), and without it every pty spawn on macOS
// throws "posix_spawnp failed." — the Sandbox terminal never gets a shell. Linux builds node-pty
// from source and Windows has no spawn-helper; there this finds nothing to fix. electron-builder
// copies the file with its mode into app.asar.unpacked, so packaged apps get the fix too.
'use strict'
const { chmodSync, existsSync, readdirSync, statSync } = require('node:fs')
const { dirname, join } = require('node:path')

/** Every spawn-helper under a node-pty folder: its prebuilds and its own build. */
function spawnHelpers(ptyDir) {
  const prebuilds = join(ptyDir, 'prebuilds')
  const candidates = existsSync(prebuilds) ? readdirSync(prebuilds).map((dir) => join(prebuilds, dir, 'spawn-helper')) : []
  candidates.push(join(ptyDir, 'build', 'Release', 'spawn-helper'), join(ptyDir, 'build', 'Debug', 'spawn-helper'))
  return candidates.filter((path) => existsSync(path))
}

/** Adds the execute bits where they are missing; returns the files it changed. */
function restoreExecuteBits(ptyDir) {
  const changed = []
  for (const path of spawnHelpers(ptyDir)) {
    const mode = statSync(path).mode & 0o777
    if ((mode & 0o111) === 0o111) continue
    chmodSync(path, mode | 0o755)
    changed.push(path)
  }
  return changed
}

function main() {
  if (process.platform === 'win32') return // no execute bits; node-pty uses conpty there
  let ptyDir
  try {
    ptyDir = dirname(require.resolve('node-pty/package.json', { paths: [join(__dirname, '..')] }))
  } catch {
    return // node-pty not installed (e.g. npm ci --omit=optional): nothing to fix
  }
  for (const path of restoreExecuteBits(ptyDir)) console.log(`node-pty: made ${path} executable again (microsoft/node-pty#850)`)
}

module.exports = { restoreExecuteBits, spawnHelpers }
if (require.main === module) main()
