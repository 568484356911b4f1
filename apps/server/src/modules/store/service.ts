/**
 * The store's public surface for other modules: the codes of a buyer's own orders (My activity).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { orders, productCodes } from '../../db/schema/store';
import { CodeVault } from './codes';

const vaults = new Map<string, CodeVault>();

/** The vault for the configured key (null: no key, production without CODE_ENCRYPTION_KEY). */
export function codeVault(key: string | null): CodeVault | null {
  if (!key) return null;
  let vault = vaults.get(key);
  if (!vault) {
    vault = new CodeVault(key);
    vaults.set(key, vault);
  }
  return vault;
}

/** Order id → its code, for the given orders that belong to `userId` (others are never opened). */
export async function codesOfOrders(
  db: DbOrTx,
  key: string | null,
  userId: string,
  orderIds: number[],
): Promise<Map<number, string>> {
  const vault = codeVault(key);
  const out = new Map<number, string>();
  if (!vault || orderIds.length === 0) return out;
  const rows = await db
    .select({ orderId: productCodes.orderId, sealed: productCodes.sealed })
    .from(productCodes)
    .innerJoin(orders, eq(orders.id, productCodes.orderId))
    .where(and(eq(orders.userId, userId), inArray(productCodes.orderId, orderIds)));
  for (const r of rows) {
    const code = r.orderId === null ? null : vault.open(r.sealed);
    if (r.orderId !== null && code !== null) out.set(r.orderId, code);
  }
  return out;
}
