/**
 * Admin: the product catalogue (`/api/admin/products`): list (with units sold), create, edit,
 * deactivate and reactivate. Every change is audited with its before and after.
 */
import type { FastifyInstance } from 'fastify';
import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import { type z } from 'zod';
import { centsToText, toCents } from '@kickback/common/money';
import { siteById } from '@kickback/common/http/leaderboards';
import { adminProductEndpoints, parseCodes, type productInput, storeMessages } from '@kickback/common/http/store';
import { orders, productCodes, products, type ProductRow } from '../../db/schema/store';
import type { DbOrTx } from '../../db/client';
import { badRequest, conflict, notFound, serviceUnavailable } from '../../lib/errors';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf, recordAudit } from '../audit/service';
import { leaderboardSites } from '../../db/schema/leaderboards';
import { CODE_HASH_VERSION, existingCodes, maskedTail, poolView, refusedText, unsoldCount } from './codes';
import { PRODUCTS_READ, toAdminProduct } from './presenter';
import { announceRestock } from './restock';
import { codeVault } from './service';

type Input = z.infer<typeof productInput>;

function columns(input: Input) {
  return {
    name: input.name,
    price: centsToText(toCents(input.price)),
    imageUrl: input.imageUrl,
    category: input.category,
    stock: input.stock,
    active: input.active,
    delivery: input.delivery,
    limitCount: input.limitCount,
    limitWindow: input.limitWindow,
    limitSite: input.limitWindow === 'cycle' ? input.limitSite : null,
    cooldownMinutes: input.cooldownMinutes,
    restriction: input.restriction,
  };
}

/**
 * A code product's stock is its pool of unsold codes, whatever the form sent; a product may stop
 * being a code product only once its pool is empty (its codes would otherwise be stranded).
 */
async function withPoolStock(tx: DbOrTx, input: Input, before: ProductRow | null): Promise<ReturnType<typeof columns>> {
  const values = columns(input);
  if (!before) return input.delivery === 'code' ? { ...values, stock: 0 } : values;
  const unsold = await unsoldCount(tx, before.id);
  if (input.delivery === 'code') return { ...values, stock: unsold };
  if (before.delivery === 'code' && unsold > 0) {
    throw conflict(`This product still has ${unsold} unsold codes: it stays an instant-code product.`);
  }
  return values;
}

function snapshot(p: ProductRow) {
  return {
    name: p.name,
    price: p.price,
    imageUrl: p.imageUrl,
    category: p.category,
    stock: p.stock,
    active: p.active,
    delivery: p.delivery,
    limitCount: p.limitCount,
    limitWindow: p.limitWindow,
    limitSite: p.limitSite,
    cooldownMinutes: p.cooldownMinutes,
    restriction: p.restriction,
  };
}

const lower = (name: string) => name.trim().toLowerCase();

/** Serialises product names: two admins saving the same new name at once cannot both pass the check. */
const PRODUCT_NAME_LOCK = 0x70_726f64; // "prod"

/**
 * Refuses (409) a name another product already has, compared trimmed and case-insensitively, so
 * the store never shows two products buyers cannot tell apart (docs/features/accessibility-and-feedback.md).
 */
async function refuseTakenName(tx: DbOrTx, name: string, exceptId: number | null): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${PRODUCT_NAME_LOCK})`);
  const same = lower(name);
  const [taken] = await tx
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(
      exceptId === null
        ? eq(sql`lower(btrim(${products.name}))`, same)
        : and(eq(sql`lower(btrim(${products.name}))`, same), ne(products.id, exceptId)),
    )
    .limit(1);
  if (taken) throw conflict(storeMessages.nameTaken(taken.name));
}

/**
 * A limit per leaderboard cycle names a leaderboard that exists (docs/features/store-limits.md#limits);
 * a tier-only product names a partner site with a milestone ladder (docs/features/store-limits.md#tier-only).
 */
async function refuseUnknownSite(tx: DbOrTx, input: Input): Promise<void> {
  if (input.limitWindow === 'cycle' && input.limitSite !== null) await refuseUnknownBoard(tx, input.limitSite);
  const rule = input.restriction;
  // A tier-only product names a site with a milestone ladder: one whose players link a partner id.
  if (rule?.kind === 'tier' && !siteById(rule.site)?.linkField) {
    throw badRequest('Choose a partner site whose players link a partner id.', 'tierSite');
  }
}

async function refuseUnknownBoard(tx: DbOrTx, limitSite: number): Promise<void> {
  const [site] = await tx
    .select({ site: leaderboardSites.site })
    .from(leaderboardSites)
    .where(eq(leaderboardSites.site, limitSite));
  if (!site) throw badRequest('Choose a leaderboard that exists.', 'limitSite');
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
      await refuseTakenName(tx, request.body.name, null);
      await refuseUnknownSite(tx, request.body);
      const [row] = await tx
        .insert(products)
        .values(await withPoolStock(tx, request.body, null))
        .returning();
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
      await refuseTakenName(tx, request.body.name, before.id);
      await refuseUnknownSite(tx, request.body);
      const [after] = await tx
        .update(products)
        .set({ ...(await withPoolStock(tx, request.body, before)), updatedAt: new Date() })
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
      return { after, dm: await announceRestock(tx, actorOf(admin), before, after, app.clock.now()) };
    });
    app.reads.invalidate(PRODUCTS_READ);
    if (updated.dm) void app.discordBroadcasts.kick();
    return toAdminProduct(updated.after, await soldOf(updated.after.id));
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

  route(app, adminProductEndpoints.codes, async (request) => {
    const [product] = await app.db.select().from(products).where(eq(products.id, request.params.id));
    if (!product) throw notFound(storeMessages.productNotFound);
    return poolView(app.db, product.id);
  });

  // Upload: refused whole when any code repeats within the upload (the body schema). A code already
  // in any pool, this product's or another's, sold or not, is refused and named with the reason; the
  // rest are sealed and added (nothing is added when every code is refused: 409). The unique hash
  // decides a race between two uploads of the same code: the later insert skips it and names it too.
  route(app, adminProductEndpoints.uploadCodes, async (request) => {
    const admin = currentUser(request);
    const vault = codeVault(app.config.codeKey);
    if (!vault) throw serviceUnavailable(storeMessages.codesUnavailable);
    const codes = parseCodes(request.body.text);
    const result = await app.db.transaction(async (tx) => {
      const [product] = await tx.select().from(products).where(eq(products.id, request.params.id)).for('update');
      if (!product) throw notFound(storeMessages.productNotFound);
      if (product.delivery !== 'code') throw badRequest(storeMessages.codesOnlyForCodeProducts);
      const refused = await existingCodes(tx, vault, product.id, codes);
      const fresh = codes.filter((c) => !refused.has(c));
      let added = 0;
      for (let i = 0; i < fresh.length; i += 500) {
        const batch = fresh.slice(i, i + 500).map((code) => ({
          code,
          row: {
            productId: product.id,
            codeHash: vault.hash(code),
            hashVersion: CODE_HASH_VERSION,
            sealed: vault.seal(code),
            tail: maskedTail(code),
            uploadedBy: admin.id,
          },
        }));
        const inserted = await tx
          .insert(productCodes)
          .values(batch.map((b) => b.row))
          .onConflictDoNothing({ target: productCodes.codeHash })
          .returning({ h: productCodes.codeHash });
        const kept = new Set(inserted.map((r) => r.h));
        for (const b of batch) if (!kept.has(b.row.codeHash)) refused.set(b.code, 'other_pool');
        added += inserted.length;
      }
      const refusals = refused.size ? refusedText(codes, refused) : '';
      if (added === 0) throw conflict(`Nothing was added. ${refusals}`);
      const stock = await unsoldCount(tx, product.id);
      const [restocked] = await tx
        .update(products)
        .set({ stock, updatedAt: new Date() })
        .where(eq(products.id, product.id))
        .returning();
      const dm = restocked ? await announceRestock(tx, actorOf(admin), product, restocked, app.clock.now()) : false;
      await recordAudit(tx, actorOf(admin), {
        action: 'product.codes_upload',
        targetType: 'product',
        targetId: String(product.id),
        before: { stock: product.stock },
        after: { stock, added, refused: refused.size },
      });
      return { added, refused: refused.size, refusals, pool: await poolView(tx, product.id), dm };
    });
    app.reads.invalidate(PRODUCTS_READ);
    if (result.dm) void app.discordBroadcasts.kick();
    const { added, refused, refusals, pool } = result;
    return {
      message: `Added ${added} code${added === 1 ? '' : 's'}; ${pool.available} available.${refusals ? ` ${refusals}` : ''}`,
      added,
      refused,
      pool,
    };
  });
}
