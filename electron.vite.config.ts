import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'

// Three builds, one per process (the electron-vite template layout).
export default defineConfig({
  main: {
    // Native and optional-native modules (ssh2, node-pty, @napi-rs/keyring) must stay
    // external: bundling breaks their .node loading. externalizeDeps is the default.
    build: { outDir: 'out/main' }
  },
  preload: {
    // A sandboxed preload cannot require anything but 'electron', so it is one CommonJS file.
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } }
    }
  },
  renderer: {
    root: 'src/renderer',
    build: { outDir: 'out/renderer', rollupOptions: { input: resolve('src/renderer/index.html') } },
    plugins: [svelte({ configFile: resolve('svelte.config.js') })]
  }
})
