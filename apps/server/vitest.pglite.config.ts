import { defineProject } from 'vitest/config';
import { PGLITE, SERVER_TIMEOUT } from './vitest.config';

/**
 * The server's PGlite set: the embedded default proven end to end (apps/server/vitest.config.ts
 * lists the files), each test database an in-memory PGlite loaded from a migrated dump
 * (apps/server/test/database.ts). Race blocks in these files still run on PostgreSQL.
 */
export default defineProject({
  test: {
    name: 'server-pglite',
    environment: 'node',
    include: PGLITE,
    env: { TEST_DATABASE: 'pglite' },
    isolate: false,
    testTimeout: SERVER_TIMEOUT,
    hookTimeout: SERVER_TIMEOUT,
  },
});
