import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import type { Plugin } from 'vite'
import { metaPolicy, shellPolicy, type PageShell } from './src/shared/content-security-policy'

/** Where index.html's meta tag takes the policy: src/shared/content-security-policy.ts is its one source. */
export const CSP_PLACEHOLDER = '%CLOUD_TRAY_CONTENT_SECURITY_POLICY%'

/**
 * Writes the page's Content-Security-Policy into its meta tag, for the shell it is built for:
 * Electron's page gets exactly the header its app:// scheme sends (less `frame-ancestors`, which a
 * meta tag cannot carry); the web shell's page adds its loopback socket; the dev server its HMR socket.
 */
export function pagePolicy(shell: PageShell): Plugin {
  return {
    name: 'cloud-tray-page-policy',
    transformIndexHtml(html, context) {
      if (!html.includes(CSP_PLACEHOLDER)) throw new Error(`src/renderer/index.html has no ${CSP_PLACEHOLDER} to fill`)
      const dev = context.server ? ['ws://localhost:*', 'ws://127.0.0.1:*'] : []
      return html.replace(CSP_PLACEHOLDER, metaPolicy(shellPolicy(shell, dev)))
    }
  }
}

/** The renderer build for a shell: Electron's (`npm run build`, `npm run dist`) or the web shell's (src/web/renderer-build.ts). */
export function rendererConfig(shell: PageShell) {
  return {
    root: 'src/renderer',
    build: { outDir: 'out/renderer', rollupOptions: { input: resolve('src/renderer/index.html') } },
    plugins: [svelte({ configFile: resolve('svelte.config.js') }), pagePolicy(shell)]
  }
}

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
  renderer: rendererConfig('electron')
})
