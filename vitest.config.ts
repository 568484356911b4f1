import { defineConfig } from 'vitest/config';

// Two cores: keep the worker count low so PGlite instances and builds do not starve each other.
export default defineConfig({
  test: {
    projects: ['packages/common', 'apps/server', 'apps/server/vitest.isolated.config.ts', 'apps/web', 'scripts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
