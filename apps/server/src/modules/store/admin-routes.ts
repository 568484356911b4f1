/**
 * Admin: the product catalogue (`/api/admin/products`): list (with units sold), create, edit,
 * deactivate and reactivate. Every change is audited with its before and after.
 */
import type { FastifyInstance } from 'fastify';
import { asc, count, desc, eq } from 'drizzle-orm';
import { type z } from 'zod';
import { centsToText, toCents } from '@kickback/common/money';
import { adminProductEndpoints, type productInput, storeMessages } from '@kickback/common/http/store';
import { orders, products, type ProductRow } from '../../db/schema/store';
import { notFound } from '../../lib/errors';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf, recordAudit } from '../audit/service';
import { PRODUCTS_READ, toAdminProduct } from './presenter';

type Input = z.infer<typeof productInput>;

function columns(input: Input) {
  return {
    name: input.name,
    price: centsToText(toCents(input.price)),
    imageUrl: input.imageUrl,
    category: input.category,
    stock: input.stock,
    active: input.active,
  };
}

function snapshot(p: ProductRow) {
  return { name: p.name, price: p.price, imageUrl: p.imageUrl, category: p.category, stock: p.stock, active: p.active };
}

export async function adminProductRoutes(app: FastifyInstance): Promise<void> {
  const soldOf = async (productId: number) =>
    (await app.db.select({ n: count() }).from(orders).where(eq(orders.productId, productId)))[0]?.n ?? 0;

  route(app, adminProductEndpoints.list, async () => {
    const [rows, sold] = await Promise.all([
      app.db.select().from(products).orderBy(desc(products.active), asc(products.category), asc(products.name)),
      app.db.select({ productId: orders.productId, n: count() }).from(orders).groupBy(orders.productId),
    ]);
    const soldBy = new Map(sold.map((s) => [s.productId, s.n]));
    return rows.map((p) => toAdminProduct(p, soldBy.get(p.id) ?? 0));
  });

  route(app, adminProductEndpoints.create, async (request) => {
    const admin = currentUser(request);
    const created = await app.db.transaction(async (tx) => {
      const [row] = await tx.insert(products).values(columns(request.body)).returning();
      if (!row) throw new Error('product insert returned no row');
      await recordAudit(tx, actorOf(admin), {
        action: 'product.create',
        targetType: 'product',
        targetId: String(row.id),
        after: snapshot(row),
      });
      return row;
    });
    app.reads.invalidate(PRODUCTS_READ);
    return toAdminProduct(created, 0);
  });

  route(app, adminProductEndpoints.update, async (request) => {
    const admin = currentUser(request);
    const updated = await app.db.transaction(async (tx) => {
      const [before] = await tx.select().from(products).where(eq(products.id, request.params.id)).for('update');
      if (!before) throw notFound(storeMessages.productNotFound);
      const [after] = await tx
        .update(products)
        .set({ ...columns(request.body), updatedAt: new Date() })
        .where(eq(products.id, before.id))
        .returning();
      if (!after) throw notFound(storeMessages.productNotFound);
      const action =
        before.active === after.active ? 'product.update' : after.active ? 'product.reactivate' : 'product.deactivate';
      await recordAudit(tx, actorOf(admin), {
        action,
        targetType: 'product',
        targetId: String(after.id),
        before: snapshot(before),
        after: snapshot(after),
      });
      return after;
    });
    app.reads.invalidate(PRODUCTS_READ);
    return toAdminProduct(updated, await soldOf(updated.id));
  });

  route(app, adminProductEndpoints.setActive, async (request) => {
    const admin = currentUser(request);
    const updated = await app.db.transaction(async (tx) => {
      const [before] = await tx.select().from(products).where(eq(products.id, request.params.id)).for('update');
      if (!before) throw notFound(storeMessages.productNotFound);
      if (before.active === request.body.active) return before;
      const [after] = await tx
        .update(products)
        .set({ active: request.body.active, updatedAt: new Date() })
        .where(eq(products.id, before.id))
        .returning();
      if (!after) throw notFound(storeMessages.productNotFound);
      await recordAudit(tx, actorOf(admin), {
        action: after.active ? 'product.reactivate' : 'product.deactivate',
        targetType: 'product',
        targetId: String(after.id),
        before: { active: before.active },
        after: { active: after.active },
      });
      return after;
    });
    app.reads.invalidate(PRODUCTS_READ);
    return toAdminProduct(updated, await soldOf(updated.id));
  });
}
