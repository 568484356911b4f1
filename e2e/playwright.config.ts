import { createHash } from 'node:crypto';
import { defineConfig } from '@playwright/test';
import { ageGateAccepted } from './tests/age-gate-state';
import { SUITE_SERVER_TIMERS } from './tests/suite-server';

// Browser tests drive the system Chromium against the built server on an in-memory database.
// The port is derived from the checkout's path, so two checkouts can run their suites at once.
const derivedPort =
  31_000 +
  (createHash('sha1')
    .update(import.meta.dirname)
    .digest()
    .readUInt16BE(0) %
    900);
export const PORT = Number(process.env.E2E_PORT ?? derivedPort);
export const BASE_URL = `http://localhost:${PORT}`;

export default defineConfig({
  testDir: './tests',
  // A hang, not slowness: journeys run on 2 cores that may be several times slower than a
  // developer's (docs/conventions.md#timeouts).
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: './test-results',
  use: {
    baseURL: BASE_URL,
    // Every journey starts with the 18+ gate confirmed (tests/age-gate.spec.ts starts without).
    storageState: ageGateAccepted(BASE_URL),
    viewport: { width: 1280, height: 800 },
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node --enable-source-maps ../apps/server/dist/main.js',
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'development',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE_URL,
      DATA_DIR: ':memory:',
      DEMO_DATA: '1',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      RATE_LIMIT_PER_MINUTE: '5000',
      ...SUITE_SERVER_TIMERS,
    },
  },
});
