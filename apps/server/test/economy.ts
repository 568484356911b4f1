/** Test helpers for the points economy: products, grants, and the ledger invariant. */
import { sql } from 'drizzle-orm';
import { products, type ProductRow } from '../src/db/schema/store';
import { rowsOf } from '../src/db/rows';
import { applyBalanceChange } from '../src/modules/ledger/service';
import type { TestApp } from './app';

export async function addProduct(
  t: TestApp,
  p: {
    name?: string;
    price?: string;
    category?: string;
    stock?: number | null;
    active?: boolean;
    imageUrl?: string | null;
    delivery?: ProductRow['delivery'];
  } = {},
): Promise<ProductRow> {
  const [row] = await t.database.db
    .insert(products)
    .values({
      name: p.name ?? 'Test product',
      price: p.price ?? '100',
      category: p.category ?? 'Merch',
      stock: p.stock ?? null,
      active: p.active ?? true,
      imageUrl: p.imageUrl ?? null,
      delivery: p.delivery ?? 'none',
    })
    .returning();
  return row!;
}

/** Credits a test user through the ledger (an admin grant): `t` is a test app or a multi-process setup. */
export async function givePoints(
  t: Pick<TestApp, 'database'>,
  userId: string,
  amount: string,
  currency: 'points' | 'gems' = 'points',
) {
  await t.database.db.transaction((tx) =>
    applyBalanceChange(tx, { userId, currency, delta: amount, reason: 'admin_grant', memo: 'test' }),
  );
}

/** Users whose balance differs from the sum of their ledger rows (should be none), and negative balances. */
export async function ledgerMismatches(t: TestApp): Promise<unknown[]> {
  const result = await t.database.db.execute(sql`
    SELECT u.id, u.points, u.gems,
      COALESCE((SELECT sum(delta) FROM ledger l WHERE l.user_id = u.id AND l.currency = 'points'), 0) AS ledger_points,
      COALESCE((SELECT sum(delta) FROM ledger l WHERE l.user_id = u.id AND l.currency = 'gems'), 0) AS ledger_gems
    FROM users u
  `);
  return rowsOf<{ points: string; gems: string; ledger_points: string; ledger_gems: string }>(result).filter(
    (r) =>
      Number(r.points) !== Number(r.ledger_points) ||
      Number(r.gems) !== Number(r.ledger_gems) ||
      Number(r.points) < 0 ||
      Number(r.gems) < 0,
  );
}
