/**
 * One page of a list, as every paged endpoint answers it (`{ items, total, page, pageSize }`): the
 * page's rows of the caller's filtered and ordered query and the count of all matching rows, read
 * together, each row mapped to what leaves the server.
 */
import { count, type SQL } from 'drizzle-orm';
import type { PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

export interface Page<Item> {
  items: Item[];
  total: number;
  page: number;
  pageSize: number;
}

export async function readPage<Q extends PgSelect, Item>(
  db: DbOrTx,
  list: {
    /** The rows in order, made `.$dynamic()` so the page's limit and offset can be added. */
    rows: Q;
    /** What `total` counts: the rows of `from` that match `where` (joins only add columns). */
    count: { from: PgTable; where: SQL | undefined };
    page: number;
    pageSize: number;
    map: (row: Awaited<Q>[number]) => Item;
  },
): Promise<Page<Item>> {
  const { rows, page, pageSize } = list;
  const [found, totals] = await Promise.all([
    rows.limit(pageSize).offset((page - 1) * pageSize),
    db.select({ n: count() }).from(list.count.from).where(list.count.where),
  ]);
  return { items: found.map((row) => list.map(row)), total: totals[0]?.n ?? 0, page, pageSize };
}
