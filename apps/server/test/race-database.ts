/**
 * Race tests: the tests that claim something holds under concurrency (no double spend, one code
 * per buyer, one winner of a uniqueness race). One PGlite connection runs one transaction at a
 * time, so there such a test passes whatever the locks are. These tests therefore run on
 * PostgreSQL in every pass — TEST_DATABASE_URL, else the server at the default address, a scratch
 * database per file — and where none is reachable they are skipped with a loud line naming what
 * was not proven (in CI a missing PostgreSQL is an error). See docs/architecture.md#race-tests.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { buildTestApp, type TestApp } from './app';
import { DEFAULT_TEST_POSTGRES, openOnPostgres, openTestDatabase } from './database';
import { postgresUnreachable } from './postgres-probe';

export const raceDatabaseUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_POSTGRES;

/** Why the race tests cannot run here, or null. */
export const raceMissing = await postgresUnreachable(raceDatabaseUrl);

/**
 * A describe block of race tests: on PostgreSQL, or skipped loudly when there is none. Every test
 * database opened while the block runs (an app built in the file's beforeEach, or by the block's
 * own hooks) is a scratch database on that PostgreSQL; an app the file built before the block is
 * not — such a file builds one in the block (buildTestApp) or uses buildRaceApp.
 */
export function describeRace(what: string, body: () => void): void {
  if (!raceMissing) {
    describe(`${what} (PostgreSQL)`, () => {
      beforeAll(() => openOnPostgres(raceDatabaseUrl));
      afterAll(() => openOnPostgres(undefined));
      body();
    });
    return;
  }
  if (process.env.CI) throw new Error(`race test: ${raceMissing}`);
  console.warn(
    `\n!!! RACE TEST SKIPPED — NOT PROVEN: ${what}\n!!! ${raceMissing}; start PostgreSQL or set TEST_DATABASE_URL.\n`,
  );
  describe.skip(what, body);
}

/**
 * For a race block in a file whose app was built before it (on PGlite): the block gets an app of
 * its own on PostgreSQL. `install` puts it in the file's variables and returns how to put the
 * file's own back, which happens when the block ends.
 */
export function useRaceApp(install: (app: TestApp) => Promise<() => void>): void {
  let own: TestApp | undefined;
  let restore: (() => void) | undefined;
  beforeAll(async () => {
    own = await buildTestApp();
    restore = await install(own);
  });
  afterAll(async () => {
    restore?.();
    await own?.close();
  });
}

/** buildTestApp on a scratch PostgreSQL database, dropped on close. */
export async function buildRaceApp(
  opts: Omit<Parameters<typeof buildTestApp>[0] & object, 'database'> = {},
): Promise<TestApp> {
  const database = await openTestDatabase(raceDatabaseUrl);
  const t = await buildTestApp({ ...opts, database });
  return {
    ...t,
    async close() {
      await t.close();
      await database.drop();
    },
  };
}
