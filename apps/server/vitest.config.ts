import { configDefaults, defineProject } from 'vitest/config';

const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];
/** Files that replace a module (`vi.mock`): they run in a fresh module graph of their own (vitest.isolated.config.ts). */
export const ISOLATED = ['src/db/pglite-folder.test.ts'];
/**
 * The files that run on PGlite, the embedded default (vitest.pglite.config.ts): the app starting on
 * it, migrated, a purchase, a game played across a restart on the same data, a backup restored. A
 * new file joins them by its name (`*.pglite.test.ts`) or by this list. Files that open a PGlite
 * folder themselves (schema-drift, pglite-folder, the CLI's) run on it wherever they are.
 */
export const PGLITE = [
  'src/**/*.pglite.test.ts',
  'src/modules/store/store.test.ts',
  'src/modules/deal-or-no-deal/restart.test.ts',
  'src/db/backup.test.ts',
];
/**
 * A test's or hook's limit: what catches a hang (docs/conventions.md#timeouts). The slowest hooks
 * (a multi-process block migrating a database and starting two servers) take ~10 s alone and a few
 * times that beside the journeys on 2 cores.
 */
export const SERVER_TIMEOUT = 120_000;

/**
 * Every server test file not in another project, on PostgreSQL: TEST_DATABASE_URL, else the
 * server at the default address when one answers, else PGlite with a loud line (in CI an error;
 * apps/server/test/database.ts). New files land here by default.
 */
export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include,
    exclude: [...configDefaults.exclude, ...ISOLATED, ...PGLITE],
    // One module graph per worker, shared by its files (each test builds its own app and database):
    // importing the server anew for each of ~100 files cost a third of the suite's time.
    isolate: false,
    testTimeout: SERVER_TIMEOUT,
    hookTimeout: SERVER_TIMEOUT,
  },
});
