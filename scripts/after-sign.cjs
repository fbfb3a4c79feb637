// electron-builder afterSign hook: notarizes a signed macOS app, or says why not (release-signing.cjs).
'use strict'
module.exports = require('./release-signing.cjs').afterSign
