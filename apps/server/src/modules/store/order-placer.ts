/**
 * Placing a store order (spec part 1 `POST /api/Order/OrderProduct`, DESIGN §5), all in one
 * transaction: the conditional stock decrement (limited products), the order row with the price
 * paid, the conditional deduction through the ledger, and the order's fulfilment item (a person
 * delivers it; rejecting it refunds the price). Any failure rolls everything back, so concurrent
 * orders can neither overspend a balance nor oversell stock.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import { toCents } from '@kickback/common/money';
import { storeMessages } from '@kickback/common/http/store';
import type { Db } from '../../db/client';
import { orders, products } from '../../db/schema/store';
import { conflict, notFound } from '../../lib/errors';
import { enqueueFulfilment } from '../fulfilment/service';
import { spend } from '../ledger/service';

export interface PlacedOrder {
  orderId: number;
  message: string;
}

export async function placeOrder(db: Db, userId: string, productId: number): Promise<PlacedOrder> {
  return db.transaction(async (tx) => {
    const [product] = await tx
      .select({
        id: products.id,
        name: products.name,
        price: products.price,
        stock: products.stock,
        active: products.active,
      })
      .from(products)
      .where(eq(products.id, productId));
    if (!product) throw notFound(storeMessages.productNotFound);
    if (!product.active) throw conflict(storeMessages.inactive);
    if (product.stock !== null) {
      // Row-locked and conditional: of N concurrent buyers of the last item, one gets a row back.
      const taken = await tx
        .update(products)
        .set({ stock: sql`${products.stock} - 1` })
        .where(and(eq(products.id, product.id), eq(products.active, true), gt(products.stock, 0)))
        .returning({ id: products.id });
      if (taken.length === 0) throw conflict(storeMessages.soldOut);
    }
    const [order] = await tx
      .insert(orders)
      .values({ userId, productId: product.id, productName: product.name, price: product.price })
      .returning({ id: orders.id });
    if (!order) throw new Error('order insert returned no row');
    const reference = String(order.id);
    const cents = toCents(product.price);
    await spend(
      tx,
      { userId, currency: 'points', delta: { cents: -cents }, reason: 'order', reference, memo: product.name },
      storeMessages.insufficientPoints,
    );
    await enqueueFulfilment(tx, {
      kind: 'order',
      reference,
      userId,
      description: product.name,
      amount: product.price,
      unit: 'points',
      refund: { currency: 'points', amount: product.price },
    });
    return { orderId: order.id, message: storeMessages.orderPlaced(product.name) };
  });
}
