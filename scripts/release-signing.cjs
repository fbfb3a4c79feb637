/**
 * Signing and notarization in a release build, decided from the CI secrets present (each
 * missing one means a skip that says so, never a failed or silently unsigned build):
 *
 * - macOS signing: electron-builder signs with CSC_LINK / CSC_KEY_PASSWORD (a Developer ID
 *   Application certificate) and the hardened runtime; notarization follows here (afterSign),
 *   with App Store Connect API keys (APPLE_API_KEY, APPLE_API_KEY_ID, APPLE_API_ISSUER) or an
 *   Apple ID (APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID).
 * - Windows signing: electron-builder signs with WIN_CSC_LINK (or CSC_LINK) / WIN_CSC_KEY_PASSWORD.
 * - Linux: deb and rpm are not signed here (repositories sign their metadata).
 *
 * beforePack prints the plan for the platform being packed; afterSign notarizes or says why not.
 * CommonJS because electron-builder `require`s hooks; `signingPlan` is pure, for the tests.
 */
'use strict'

const filled = (env, ...names) => names.every((name) => typeof env[name] === 'string' && env[name].trim() !== '')

/** @param {string} platform electron's: darwin, win32, linux @param {Record<string, string | undefined>} env */
function signingPlan(platform, env) {
  if (platform === 'darwin' || platform === 'mas') {
    const sign = filled(env, 'CSC_LINK')
    const apiKey = filled(env, 'APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER')
    const appleId = filled(env, 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID')
    return {
      sign,
      notarize: sign && (apiKey || appleId) ? (apiKey ? 'api-key' : 'apple-id') : false,
      reasons: [
        ...(sign ? [] : ['macOS signing skipped: no CSC_LINK (a Developer ID Application certificate) in this build']),
        ...(!sign
          ? ['macOS notarization skipped: the app is not signed']
          : apiKey || appleId
            ? []
            : [
                'macOS notarization skipped: neither APPLE_API_KEY/APPLE_API_KEY_ID/APPLE_API_ISSUER nor APPLE_ID/APPLE_APP_SPECIFIC_PASSWORD/APPLE_TEAM_ID is set'
              ])
      ]
    }
  }
  if (platform === 'win32') {
    const sign = filled(env, 'WIN_CSC_LINK') || filled(env, 'CSC_LINK')
    return {
      sign,
      notarize: false,
      reasons: sign ? [] : ['Windows signing skipped: no WIN_CSC_LINK (a code-signing certificate) in this build']
    }
  }
  return { sign: false, notarize: false, reasons: ['Linux packages are not signed here (a repository signs its metadata)'] }
}

/** @param {import('electron-builder').BeforePackContext} context */
async function beforePack(context) {
  const plan = signingPlan(context.electronPlatformName, process.env)
  for (const reason of plan.reasons) console.log(`  • ${reason}`)
  if (plan.sign) console.log(`  • ${context.electronPlatformName}: signing with the certificate in this build's secrets`)
}

/** @param {import('electron-builder').AfterPackContext} context */
async function afterSign(context) {
  if (context.electronPlatformName !== 'darwin') return
  const plan = signingPlan('darwin', process.env)
  if (!plan.notarize) {
    for (const reason of plan.reasons.filter((r) => r.includes('notarization'))) console.log(`  • ${reason}`)
    return
  }
  const { notarize } = require('@electron/notarize')
  const appPath = require('node:path').join(context.appOutDir, `${context.packager.appInfo.productFilename}.app`)
  const env = process.env
  const credentials =
    plan.notarize === 'api-key'
      ? { appleApiKey: env.APPLE_API_KEY, appleApiKeyId: env.APPLE_API_KEY_ID, appleApiIssuer: env.APPLE_API_ISSUER }
      : { appleId: env.APPLE_ID, appleIdPassword: env.APPLE_APP_SPECIFIC_PASSWORD, teamId: env.APPLE_TEAM_ID }
  console.log(`  • notarizing ${appPath} (${plan.notarize})`)
  await notarize({ appPath, ...credentials })
}

module.exports = { signingPlan, beforePack, afterSign }
