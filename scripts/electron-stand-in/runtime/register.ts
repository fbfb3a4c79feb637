/**
 * Loaded with `node --import` before the app's built main: points `electron`, the keychain
 * package and (for one scenario) `node-pty` at the stand-ins in this folder.
 */
import { register } from 'node:module'
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
