import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { ageGateAccepted } from './tests/age-gate-state';
import { PORT, serverUrl, SUITE_SERVER_TIMERS, WORKERS } from './tests/suite-server';

// Browser tests drive the system Chromium against the built server on an in-memory database, one
// server per worker (tests/suite-server.ts).
const BASE_URL = serverUrl(0);

export default defineConfig({
  testDir: './tests',
  // A hang, not slowness: journeys run on 2 cores that may be several times slower than a
  // developer's (docs/conventions.md#timeouts).
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: WORKERS,
  retries: process.env.CI ? 1 : 0,
  // The list as it goes, and a JSON report that scripts/ci-failures.mjs reads when the run failed.
  reporter: [
    ['list'],
    ['json', { outputFile: path.join(import.meta.dirname, '..', 'test-reports', 'playwright.json') }],
  ],
  outputDir: './test-results',
  use: {
    // The first worker's; tests/fixtures.ts gives each worker its own server and these for it.
    baseURL: BASE_URL,
    // Every journey starts with the 18+ gate confirmed (tests/age-gate.spec.ts starts without).
    storageState: ageGateAccepted(BASE_URL),
    viewport: { width: 1280, height: 800 },
    // Pages drawn without their endless decorative animations: an animating page keeps Chromium's
    // compositor busy (about half its CPU over a run). The journeys that check confetti, a wheel or
    // a spinner ask for motion themselves (docs/conventions.md#test-speed).
    reducedMotion: 'reduce',
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
  webServer: Array.from({ length: WORKERS }, (_, index) => ({
    command: 'node --enable-source-maps ../apps/server/dist/main.js',
    url: `${serverUrl(index)}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    env: {
      NODE_ENV: 'development',
      PORT: String(PORT + index),
      HOST: '127.0.0.1',
      PUBLIC_URL: serverUrl(index),
      DATA_DIR: ':memory:',
      DEMO_DATA: '1',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      RATE_LIMIT_PER_MINUTE: '5000',
      ...SUITE_SERVER_TIMERS,
    },
  })),
});
