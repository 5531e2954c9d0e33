// Playwright in headless Chromium from Debian (no browser download is
// possible here), against pages served with COOP/COEP by scripts/serve.mjs.
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.SHARDLAB_TEST_PORT ?? 8391);

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.js',
  timeout: 60_000,
  // Two spec files at a time: many tests mostly wait (time limits, Python's
  // start), and the page is built once before either starts.
  workers: 2,
  globalSetup: './global_setup.js',
  outputDir: '../../build/test-results/playwright-artifacts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: `node scripts/serve.mjs --port ${PORT}`,
      cwd: '../..',
      url: `http://127.0.0.1:${PORT}/tests/browser/pages/devices.html`,
      reuseExistingServer: false,
      stdout: 'ignore',
    },
    {
      // The same files without COOP/COEP: no SharedArrayBuffer (the fallback's page).
      command: `node scripts/serve.mjs --port ${PORT + 1} --no-isolation`,
      cwd: '../..',
      url: `http://127.0.0.1:${PORT + 1}/tests/browser/pages/devices.html`,
      reuseExistingServer: false,
      stdout: 'ignore',
    },
  ],
});
