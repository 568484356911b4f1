/**
 * "Notify me when back in stock" (docs/features/store-limits.md#back-in-stock): a signed-in viewer
 * asks on a sold-out product; the admin change that brings it back (a stock edit, a codes upload)
 * answers every asker in its own transaction — a site notification each, and one Discord DM job
 * for those with Discord linked — and deletes the requests, so each asker hears once per restock.
 */
import { eq } from 'drizzle-orm';
import { storeMessages } from '@kickback/common/http/store';
import type { Db, DbOrTx } from '../../db/client';
import { products, type ProductRow, storeRestockRequests } from '../../db/schema/store';
import { conflict, notFound } from '../../lib/errors';
import { said, type Said } from '../../lib/i18n';
import type { Actor } from '../audit/service';
import { queueDirectMessage } from '../discord-broadcasts/service';
import { notifyMany } from '../notifications/service';

export const RESTOCK_KIND = 'store.restock';

const soldOut = (p: Pick<ProductRow, 'stock'>) => p.stock !== null && p.stock <= 0;

/** Records the viewer's request (asking twice is one request). */
export async function requestRestockAlert(db: Db, userId: string, productId: number): Promise<Said> {
  const [product] = await db.select().from(products).where(eq(products.id, productId));
  if (!product || !product.active) throw notFound(said('store:productNotFound'));
  if (!soldOut(product)) throw conflict(said('store:restockInStock'));
  await db.insert(storeRestockRequests).values({ userId, productId }).onConflictDoNothing();
  return said('store:restockRequested', { name: product.name });
}

/**
 * Called in the transaction that changed the product: when it went from sold out to buyable,
 * answers and clears its requests. Returns true when a Discord DM job was queued (the caller
 * kicks the broadcast worker after commit).
 */
export async function announceRestock(
  tx: DbOrTx,
  actor: Actor,
  before: Pick<ProductRow, 'stock'>,
  after: ProductRow,
  now: Date,
): Promise<boolean> {
  if (!soldOut(before) || soldOut(after) || !after.active) return false;
  const askers = await tx
    .delete(storeRestockRequests)
    .where(eq(storeRestockRequests.productId, after.id))
    .returning({ userId: storeRestockRequests.userId });
  const userIds = askers.map((a) => a.userId);
  if (userIds.length === 0) return false;
  const text = storeMessages.restockNotice(after.name);
  await notifyMany(tx, userIds, RESTOCK_KIND, text, '/store');
  const job = await queueDirectMessage(tx, actor, `${text} Buy it before it goes again.`, userIds, now);
  return job !== null && job.pending > 0;
}
