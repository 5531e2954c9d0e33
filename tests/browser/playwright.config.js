// Playwright in headless Chromium from Debian (no browser download is
// possible here), against pages served with COOP/COEP by scripts/serve.mjs.
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.SHARDLAB_TEST_PORT ?? 8391);

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.js',
  timeout: 60_000,
  // Two spec files at a time: many tests mostly wait (time limits, Python's
  // start), and the page is built once before either starts. The tests that
  // time the page's main thread (tagged @alone) run afterwards, one at a
  // time: a second browser busy on the 2 cores would stretch their gaps.
  workers: 2,
  globalSetup: './global_setup.js',
  projects: [
    { name: 'shared', grepInvert: /@alone/ },
    { name: 'alone', grep: /@alone/, workers: 1, dependencies: ['shared'] },
  ],
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
