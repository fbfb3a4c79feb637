// electron-builder beforePack hook: says what this build will sign and notarize, and why not (release-signing.cjs).
'use strict'
module.exports = require('./release-signing.cjs').beforePack
