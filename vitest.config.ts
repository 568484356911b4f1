import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** Where the run's reports go, beside the list output: scripts/ci-failures.mjs reads them. */
const reports = path.join(import.meta.dirname, 'test-reports');

// Two cores: keep the worker count low so PGlite instances and builds do not starve each other.
export default defineConfig({
  test: {
    projects: [
      'packages/common',
      'apps/server',
      'apps/server/vitest.pglite.config.ts',
      'apps/server/vitest.isolated.config.ts',
      'apps/web',
      'scripts',
    ],
    pool: 'forks',
    maxWorkers: 2,
    reporters: [
      'default',
      ['json', { outputFile: path.join(reports, 'vitest.json') }],
      ['./scripts/vitest-unhandled-reporter.mjs', { outputFile: path.join(reports, 'vitest-unhandled.json') }],
    ],
  },
});
