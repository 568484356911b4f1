/**
 * Placing a store order (docs/product.md#site-calls `POST /api/Order/OrderProduct`,
 * docs/features/points-and-store.md#the-ledger) in ONE SQL statement, which PostgreSQL runs as one
 * transaction: read the product; take the price from the buyer when the balance covers it (the
 * ledger's conditional debit and its ledger row, from ledger/service.ts); take one from the stock
 * when it is limited (`… AND stock > 0`, re-checked under the row lock); write the order with the
 * price paid and its fulfilment item (rejecting it refunds the price). One round trip instead of
 * seven, and a statement PostgreSQL prepares once per connection, keep the hot path fast
 * (bench/orders.ts).
 *
 * The product's delivery kind rides along: a Steam trade URL or email product is ordered only with
 * a detail of that kind (classified by the route with the shared zod rules and stored on the order);
 * a code product takes its oldest unsold code (`FOR UPDATE SKIP LOCKED`) for the order in the same
 * statement, and its fulfilment item is written already delivered. A code product's stock is its
 * pool of unsold codes, so the stock decrement (under the product's row lock) admits exactly as
 * many buyers as there are codes.
 *
 * The statement's parts see one snapshot, so the debit cannot wait for the stock decrement. When
 * the last item goes to a concurrent buyer between our read and our decrement, the statement
 * aborts itself (a failing cast), which rolls the debit back, and we ask again; the second time
 * the product reads sold out. So concurrent orders can neither overspend nor oversell.
 *
 * A product with store limits (docs/features/store-limits.md) is refused by that one statement
 * (`limited`, nothing written); it is ordered instead in a transaction that first checks and locks
 * the buyer's limits (limits.ts) and then runs the same statement with `limitsChecked`. A streak
 * restore (docs/features/stream-streaks.md#restoring-a-broken-streak) is such a product: its
 * restore runs in that transaction once the order is written (`restoreAfterOrder`).
 */
import { fillPlaceholders, sql, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { deliveryDetailMessages, type DeliveryKind, type DetailKind, needsDetail } from '@kickback/common/http/store';
import type { Database, DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { said, type Said } from '../../lib/i18n';
import { pointsDebitCtes } from '../ledger/service';
import { restoreLostStreak } from '../stream-streaks/service';
import { enforceLimits } from './limits';

export interface PlacedOrder {
  orderId: number;
  /** The sealed code the order took (code products), opened by the caller for the buyer. */
  sealedCode: string | null;
  /** The contract's message (docs/product.md), said in the buyer's language by the route. */
  message: Said;
  name: string;
  /** The product is limited: its stock went down by one (the public catalogue shows it). */
  stockTaken: boolean;
  /** A streak restore: the buyer's stream streak now (null: not a streak restore). */
  streakRestored: number | null;
}

interface Outcome {
  found: boolean;
  active: boolean | null;
  stock: number | null;
  name: string | null;
  delivery: DeliveryKind | null;
  /** The product has store limits: ordered only with `limitsChecked` (limits.ts). */
  limited: boolean | null;
  order_id: string | number | null;
  sealed: string | null;
  /** Set by limitedAttempt for a streak restore whose order was written. */
  restored?: number | null;
}

const STOCK_RACE = 'kickback-stock-race';
const MAX_ATTEMPTS = 5;

/**
 * The product was deleted (Admin → Go live → Remove demo data, modules/demo/service.ts) while the
 * statement waited on its row: the order's reference to it fails. Asked again, it reads as not found.
 */
function isProductGone(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23503' && constraint === 'orders_product_id_fkey') return true;
  }
  return false;
}

function isStockRace(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (String((e as { message?: unknown }).message ?? '').includes(STOCK_RACE)) return true;
  }
  return false;
}

function orderStatement(
  userId: SQLWrapper,
  productId: SQLWrapper,
  detail: SQLWrapper,
  detailKind: SQLWrapper,
  limitsChecked: SQLWrapper,
) {
  const ledgerPart = pointsDebitCtes(userId);
  return sql`
    WITH product AS (
      SELECT id, name, price, stock, active, delivery,
        (limit_count IS NOT NULL OR cooldown_minutes IS NOT NULL OR restriction IS NOT NULL) AS limited
      FROM products WHERE id = ${productId}
    ), priced AS (
      SELECT id, name, price, stock, delivery,
        active AND (stock IS NULL OR stock > 0)
          AND (delivery IN ('none', 'code') OR delivery = ${detailKind}::text)
          AND (NOT limited OR ${limitsChecked}::boolean) AS allowed
      FROM product
    ), ${ledgerPart.debit}, taken AS (
      UPDATE products p SET stock = p.stock - 1
      FROM priced, debit
      WHERE p.id = priced.id AND priced.stock IS NOT NULL AND p.active AND p.stock > 0
      RETURNING p.id
    ), placed AS (
      INSERT INTO orders (user_id, product_id, product_name, price, delivery_detail)
      SELECT debit.user_id, priced.id, priced.name, priced.price,
        CASE WHEN priced.delivery IN ('steam_trade_url', 'email') THEN ${detail}::text END
      FROM debit, priced
      WHERE priced.stock IS NULL OR EXISTS (SELECT 1 FROM taken)
      RETURNING id, user_id, product_id, product_name, price
    ), claimed AS (
      UPDATE product_codes c SET order_id = placed.id, sold_at = now()
      FROM placed, priced
      WHERE priced.delivery = 'code' AND c.id = (
        SELECT pc.id FROM product_codes pc
        WHERE pc.product_id = placed.product_id AND pc.order_id IS NULL AND pc.withdrawn_at IS NULL
        ORDER BY pc.id LIMIT 1 FOR UPDATE SKIP LOCKED
      )
      RETURNING c.sealed
    ), ${ledgerPart.entry('placed')}, queued AS (
      INSERT INTO fulfilment_items (kind, reference, user_id, description, amount, unit, refund_currency, refund_amount,
        status, note, handled_at)
      SELECT 'order', placed.id::text, placed.user_id, placed.product_name, placed.price, 'points', 'points', placed.price,
        CASE WHEN priced.delivery = 'code' THEN 'delivered' ELSE 'pending' END,
        CASE WHEN priced.delivery = 'code' THEN 'Code delivered automatically at purchase.' END,
        CASE WHEN priced.delivery = 'code' THEN now() END
      FROM placed, priced
      RETURNING id
    ), outcome AS (
      SELECT
        EXISTS (SELECT 1 FROM product) AS found,
        (SELECT active FROM product) AS active,
        (SELECT stock FROM product) AS stock,
        (SELECT name FROM product) AS name,
        (SELECT delivery FROM product) AS delivery,
        (SELECT limited FROM product) AS limited,
        (SELECT id FROM placed) AS order_id,
        (SELECT sealed FROM claimed) AS sealed,
        EXISTS (SELECT 1 FROM debit) AS debited,
        (SELECT count(*) FROM entry) + (SELECT count(*) FROM queued) AS written
    )
    SELECT found, active, stock, name, delivery, limited, order_id, sealed,
      -- Debited but no order (the stock went meanwhile), or a code product's order without a code:
      -- abort the whole statement.
      CAST(
        CASE WHEN (debited AND order_id IS NULL) OR (order_id IS NOT NULL AND delivery = 'code' AND sealed IS NULL)
        THEN ${STOCK_RACE} ELSE '0' END AS integer
      ) AS guard
    FROM outcome
  `;
}

/** Rendered once; each order without limits fills in the placeholders. */
const statement = new PgDialect().sqlToQuery(
  orderStatement(
    sql.placeholder('userId'),
    sql.placeholder('productId'),
    sql.placeholder('detail'),
    sql.placeholder('detailKind'),
    sql`false`,
  ),
);

/** The buyer's delivery detail and which kind it is (by the shared zod rules), both null when none was given. */
export interface OrderDetail {
  value: string | null;
  kind: DetailKind | null;
}

async function attempt(
  database: Database,
  userId: string,
  productId: number,
  detail: OrderDetail,
  now: Date,
): Promise<Outcome> {
  const rows = await database.query<Outcome & Record<string, unknown>>(
    statement.sql,
    fillPlaceholders(statement.params, { userId, productId, detail: detail.value, detailKind: detail.kind }),
    'kickback_place_order',
  );
  const row = rows[0];
  if (!row) throw new Error('order statement returned no row');
  const orderable = row.active === true && (row.stock === null || row.stock > 0);
  return row.limited && orderable && row.order_id === null
    ? limitedAttempt(database, userId, productId, detail, now)
    : row;
}

/** A product with store limits: its limits checked under the buyer's slot lock, then the same statement. */
async function limitedAttempt(
  database: Database,
  userId: string,
  productId: number,
  detail: OrderDetail,
  now: Date,
): Promise<Outcome> {
  return database.db.transaction(async (tx) => {
    const { restoresStreak } = await enforceLimits(tx, userId, productId, now);
    const [row] = rowsOf<Outcome>(
      await tx.execute(
        orderStatement(sql`${userId}`, sql`${productId}`, sql`${detail.value}`, sql`${detail.kind}`, sql`true`),
      ),
    );
    if (!row) throw new Error('order statement returned no row');
    return restoresStreak ? restoreAfterOrder(tx, userId, row, now) : row;
  });
}

/** A streak restore whose order was written: the streak is restored in the same transaction. */
async function restoreAfterOrder(tx: DbOrTx, userId: string, row: Outcome, now: Date): Promise<Outcome> {
  if (row.order_id === null) return row;
  return { ...row, restored: await restoreLostStreak(tx, userId, now) };
}

/** Only asked after a refused order, to say why: a debt blocks spending (ledger/service). */
async function owesPoints(database: Database, userId: string): Promise<boolean> {
  const rows = await database.query<{ owes: boolean }>('SELECT points_debt > 0 AS owes FROM users WHERE id = $1', [
    userId,
  ]);
  return rows[0]?.owes === true;
}

export async function placeOrder(
  database: Database,
  userId: string,
  productId: number,
  detail: OrderDetail = { value: null, kind: null },
  now: Date = new Date(),
): Promise<PlacedOrder> {
  for (let i = 1; ; i++) {
    let outcome: Outcome;
    try {
      outcome = await attempt(database, userId, productId, detail, now);
    } catch (err) {
      if ((isStockRace(err) || isProductGone(err)) && i < MAX_ATTEMPTS) continue;
      if (isStockRace(err)) throw conflict(said('store:soldOut'));
      throw err;
    }
    if (!outcome.found) throw notFound(said('store:productNotFound'));
    if (!outcome.active) throw conflict(said('store:inactive'));
    if (outcome.order_id === null) {
      const wanted = outcome.delivery;
      // The detail is the buyer's to fix: say what the product needs (nothing was changed).
      if (wanted && needsDetail(wanted) && detail.kind !== wanted) throw badRequest(deliveryDetailMessages[wanted]);
      if (!(outcome.stock !== null && outcome.stock <= 0) && (await owesPoints(database, userId))) {
        throw conflict(said('ledger:debt'));
      }
      throw conflict(said(outcome.stock !== null && outcome.stock <= 0 ? 'store:soldOut' : 'store:insufficientPoints'));
    }
    return {
      orderId: Number(outcome.order_id),
      sealedCode: outcome.sealed,
      name: outcome.name ?? '',
      message:
        outcome.restored !== undefined && outcome.restored !== null
          ? said('store:streakRestored', { name: outcome.name ?? '', streak: outcome.restored })
          : said('store:orderPlaced', { name: outcome.name ?? '' }),
      stockTaken: outcome.stock !== null,
      streakRestored: outcome.restored ?? null,
    };
  }
}
