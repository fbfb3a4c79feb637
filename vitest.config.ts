import { resolve } from 'node:path'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { defineConfig } from 'vitest/config'

// Unit and integration tests run in Node against real sockets on 127.0.0.1. The Svelte plugin
// compiles the window's runes stores (`*.svelte.ts`) so their logic is tested here too.
export default defineConfig({
  plugins: [svelte({ configFile: resolve('svelte.config.js') })],
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['scripts/vitest-setup.ts']
  }
})
