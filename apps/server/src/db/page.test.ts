import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database';
import { readPage } from './page';
import { settings } from './schema/audit';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
  await database.db
    .insert(settings)
    .values(['a', 'b', 'c', 'd', 'e'].map((key) => ({ key, value: { even: 'bd'.includes(key) } })));
});
afterAll(async () => {
  await database?.drop();
});

describe('readPage', () => {
  it("answers the page's rows in order, mapped, with the count of every matching row", async () => {
    const page = (n: number, where?: ReturnType<typeof eq>) =>
      readPage(database.db, {
        rows: database.db.select().from(settings).where(where).orderBy(asc(settings.key)).$dynamic(),
        count: { from: settings, where },
        page: n,
        pageSize: 2,
        map: (row) => row.key.toUpperCase(),
      });
    expect(await page(2)).toEqual({ items: ['C', 'D'], total: 5, page: 2, pageSize: 2 });
    expect(await page(3)).toEqual({ items: ['E'], total: 5, page: 3, pageSize: 2 });
    const even = eq(settings.value, { even: true });
    expect(await page(1, even)).toEqual({ items: ['B', 'D'], total: 2, page: 1, pageSize: 2 });
  });
});
