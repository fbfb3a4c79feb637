/**
 * The command line's build (`npm run build` runs it after electron-vite): src/cli/main.ts and
 * everything it imports in one small CommonJS file for Node, `out/cli/cloud-tray.cjs` (CommonJS
 * starts ~15 ms sooner than an ES module: no asynchronous module loader), with no
 * dependency left outside it (the installers copy out/cli into the app's resources, away from
 * its node_modules), and the launchers the installers put on the PATH beside it.
 */
import { chmodSync, copyFileSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { defineConfig, type Plugin } from 'vite'

const root = import.meta.dirname
const defaultOutDir = resolve(root, 'out/cli')
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }

/** The shell and cmd launchers, executable, beside the bundle (in `--outDir` when a test builds elsewhere). */
function launchers(): Plugin {
  let outDir = defaultOutDir
  return {
    name: 'cloud-tray-launchers',
    configResolved(config) {
      outDir = resolve(root, config.build.outDir)
    },
    closeBundle() {
      for (const name of ['cloud-tray', 'cloud-tray.cmd']) {
        copyFileSync(resolve(root, 'src/cli/launchers', name), join(outDir, name))
        chmodSync(join(outDir, name), 0o755)
      }
      chmodSync(join(outDir, 'cloud-tray.cjs'), 0o755)
    }
  }
}

export default defineConfig({
  define: { __CLOUD_TRAY_VERSION__: JSON.stringify(pkg.version) },
  plugins: [launchers()],
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: resolve(root, 'src/cli/main.ts'),
    outDir: defaultOutDir,
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    reportCompressedSize: false,
    rollupOptions: {
      output: {
        format: 'cjs',
        entryFileNames: 'cloud-tray.cjs',
        chunkFileNames: 'chunks/[name]-[hash].cjs',
        banner: '#!/usr/bin/env node'
      }
    }
  }
})
