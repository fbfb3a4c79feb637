/**
 * Loaded with `node --import` before the app's built main: points `electron`, the keychain
 * package and (for one scenario) `node-pty` at the stand-ins in this folder.
 */
import Module, { register } from 'node:module'
import { fileURLToPath } from 'node:url'
import { OPTIONS_VARIABLE, type StandInOptions } from '../protocol'

const options = JSON.parse(process.env[OPTIONS_VARIABLE] ?? 'null') as StandInOptions | null
if (!options) throw new Error(`${OPTIONS_VARIABLE} is not set: run the app through scripts/electron-stand-in/harness.ts`)

const here = (file: string): string => new URL(`./${file}`, import.meta.url).href
register(here('hooks.mjs'), import.meta.url, {
  data: {
    electron: here('electron.mjs'),
    '@napi-rs/keyring': here('keyring.mjs'),
    ...(options.ptySpawnFails ? { 'node-pty': here('node-pty-spawn-fails.mjs') } : {})
  }
})

// Electron sets this: where app-update.yml, package-type and the unpacked asar live.
;(process as { resourcesPath?: string }).resourcesPath = options.resourcesPath

// CommonJS packages (electron-updater) `require('electron')`: the same stand-in module, loaded
// with require(esm), instead of the npm package's index.js (which only names Electron's binary).
const moduleWithResolve = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string }
const resolveFilename = moduleWithResolve._resolveFilename
moduleWithResolve._resolveFilename = function (request: string, ...rest: unknown[]): string {
  if (request === 'electron') return fileURLToPath(here('electron.mjs'))
  return resolveFilename.call(this, request, ...rest)
}
