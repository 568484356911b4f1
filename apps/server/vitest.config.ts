import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configDefaults, defineProject } from 'vitest/config';

const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];
/** A test's or hook's limit: longer in the PostgreSQL pass (see the comment in the config below). */
const timeout = process.env.TEST_DATABASE_URL ? 900_000 : 360_000;
/** Files that replace a module (`vi.mock`): they run in a fresh module graph of their own (vitest.isolated.config.ts). */
export const ISOLATED = ['src/db/pglite-folder.test.ts'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => path.relative(import.meta.dirname, path.join(e.parentPath, e.name)));
}

/**
 * The PostgreSQL pass (TEST_DATABASE_URL) runs the files whose database that variable chooses:
 * those opening the suite's test database (test/app, test/database, test/warm, test/restartable-app).
 * The others would only repeat themselves: pure units, embedded-database (PGlite folder) tests, and
 * the multi-process tests, which run on the real PostgreSQL and Redis in every pass.
 */
function postgresPass(): string[] {
  return ['src', 'test']
    .flatMap((d) => testFiles(path.join(import.meta.dirname, d)))
    .filter((file) => {
      const source = readFileSync(path.join(import.meta.dirname, file), 'utf8');
      return /test\/(app|database|warm|restartable-app)'/.test(source) && !/test\/multi-process'/.test(source);
    });
}

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: process.env.TEST_DATABASE_URL ? postgresPass() : include,
    exclude: [...configDefaults.exclude, ...ISOLATED],
    // One module graph per worker, shared by its files (each test builds its own app and database):
    // importing the server anew for each of ~100 files cost a third of the suite's time.
    isolate: false,
    // Timeouts catch a hang, not slowness, and tests do not set their own below these: restart and
    // multi-process tests start servers, and CI runs this suite beside the journeys on 2 cores that
    // may be several times slower than a developer's; the PostgreSQL pass runs there at nice 19 and
    // gets a few percent of a core while the journeys are busy (docs/conventions.md#timeouts).
    testTimeout: timeout,
    hookTimeout: timeout,
  },
});
