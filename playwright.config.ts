import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumExecutable } from './e2e/chromium'

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  // Each spec starts its own `npm run web` server and emulator, so files can run in parallel;
  // two workers match this machine's two cores.
  workers: 2,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      ...(chromiumExecutable ? { executablePath: chromiumExecutable } : {}),
      args: chromiumArgs
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure'
  },
  projects: [
    { name: 'web', testIgnore: /electron\// },
    { name: 'electron', testMatch: /electron\/.*\.spec\.ts/ }
  ]
})
