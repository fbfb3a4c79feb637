/**
 * electron-builder `afterPack` hook: flip Electron's fuses in the packaged binary, before it is
 * signed and wrapped into AppImage/deb/dmg/nsis. Fuses are bits compiled into the Electron binary
 * that turn off whole features; flipping them here means no environment variable or command-line
 * flag can turn those features back on in the shipped app (Electron security checklist item 19).
 *
 * CommonJS because electron-builder `require`s hooks; the config is a plain exported object so
 * scripts/after-pack-fuses.test.ts can check every decision without packaging anything.
 */
'use strict'

const path = require('node:path')
const { flipFuses, getCurrentFuseWire, FuseVersion, FuseV1Options } = require('@electron/fuses')

/**
 * Each fuse, decided. The reason is the threat it closes.
 * @type {import('@electron/fuses').FuseV1Config}
 */
const fuseConfig = {
  version: FuseVersion.V1,
  // ELECTRON_RUN_AS_NODE would turn the signed app into a general Node interpreter that any
  // local program could drive with our keychain entry and our code signature.
  [FuseV1Options.RunAsNode]: false,
  // Cookies on disk (the notebook AccessToken cookie lives in a session partition) are encrypted
  // with a key from the OS keychain.
  [FuseV1Options.EnableCookieEncryption]: true,
  // NODE_OPTIONS could preload arbitrary code (--require) into the main process.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  // --inspect would let anyone who can start the app attach a debugger and read the token.
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // The app's code is checked against the hash embedded at packaging (macOS and Windows).
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  // Only app.asar is loaded, so a dropped-in resources/app folder cannot replace our code.
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // We do not ship a custom V8 snapshot.
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  // Off: the app window's page is served from the app:// scheme (src/main/windows/app-protocol.ts),
  // so no page of ours is a file:// page. With it on, a file:// page could fetch() any file on
  // the disk (~/.ssh keys included) and frame other file:// pages with universal access.
  // after-pack-fuses.test.ts ties the two together: a loadFile or file: page would need it on.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false
}

/** The file whose fuse wire is flipped, for each platform electron-builder packs. */
function electronBinaryPath(context) {
  const { appOutDir, electronPlatformName, packager } = context
  const productFilename = packager.appInfo.productFilename
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(appOutDir, `${productFilename}.app`)
    case 'win32':
      return path.join(appOutDir, `${productFilename}.exe`)
    default:
      return path.join(appOutDir, packager.executableName)
  }
}

/** Flip, then read back: a fuse that did not land fails the build rather than shipping open. */
async function applyFuses(binaryPath, config = fuseConfig, { resetAdHocDarwinSignature = false } = {}) {
  await flipFuses(binaryPath, { ...config, resetAdHocDarwinSignature })
  const wire = await getCurrentFuseWire(binaryPath)
  const wanted = (on) => (on ? 49 : 48) // FuseState.ENABLE / DISABLE: '1' / '0' in the wire
  const wrong = Object.keys(FuseV1Options)
    .filter((key) => /^\d+$/.test(key) && typeof config[key] === 'boolean')
    .filter((index) => wire[index] !== 114 /* REMOVED */ && wire[index] !== wanted(config[index]))
    .map((index) => FuseV1Options[index])
  if (wrong.length > 0) {
    throw new Error(`Electron fuses did not flip in ${binaryPath}: ${wrong.join(', ')}`)
  }
  return wire
}

/** @param {import('electron-builder').AfterPackContext} context */
async function afterPack(context) {
  const binary = electronBinaryPath(context)
  // Apple-silicon macOS refuses to run a binary whose ad-hoc signature no longer matches its bytes.
  const resetAdHocDarwinSignature =
    context.electronPlatformName === 'darwin' && (context.arch === 3 /* Arch.arm64 */ || context.arch === 4) /* universal */
  await applyFuses(binary, fuseConfig, { resetAdHocDarwinSignature })
  console.log(`  • fuses flipped  file=${binary}`)
}

module.exports = afterPack
module.exports.default = afterPack
module.exports.fuseConfig = fuseConfig
module.exports.applyFuses = applyFuses
module.exports.electronBinaryPath = electronBinaryPath
