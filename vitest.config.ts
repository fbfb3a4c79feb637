import { defineConfig } from 'vitest/config'

// Unit and integration tests run in Node against real sockets on 127.0.0.1.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['scripts/vitest-setup.ts']
  }
})
