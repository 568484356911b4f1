/**
 * The re-hash of store codes hashed as typed runs at server start (docs/features/points-and-store.md):
 * two processes started together on a database holding such codes re-hash them once (one
 * withdrawal audited, not two), and from then on another spelling of an old code is refused.
 *
 * Needs PostgreSQL and Redis (apps/server/test/multi-process.ts: skipped with the reason outside CI).
 */
import { createHmac } from 'node:crypto';
import { expect, it, describe } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema/audit';
import { productCodes, products } from '../../db/schema/store';
import { missing, serversOnFreshDatabase } from '../../../test/multi-process';
import { CodeVault, maskedTail } from './codes';

const KEY = 'rehash-at-start-key-0123456789abcdefghij';

describe.skipIf(missing !== null)('store codes re-hashed when processes start', () => {
  const mp = serversOnFreshDatabase({ tag: 'rehash', env: { CODE_ENCRYPTION_KEY: KEY } });

  it('two processes starting together re-hash the old codes once; another spelling is refused after', async () => {
    const db = mp.database.db;
    const [product] = await db
      .insert(products)
      .values({ name: 'Old cards', price: '10', category: 'Gift cards', stock: 3, delivery: 'code' })
      .returning();
    const vault = new CodeVault(KEY);
    const hashKey = createHmac('sha256', KEY).update('kickback-code-hash').digest();
    for (const code of ['OLD-AAAA-1111', 'old aaaa 1111', 'OLD-BBBB-2222']) {
      await db.insert(productCodes).values({
        productId: product!.id,
        codeHash: createHmac('sha256', hashKey).update(code, 'utf8').digest('base64url'),
        hashVersion: 1,
        sealed: vault.seal(code),
        tail: maskedTail(code),
      });
    }

    await Promise.all([mp.servers.stop(0), mp.servers.stop(1)]);
    await Promise.all([mp.servers.restart(0), mp.servers.restart(1)]);

    const rows = await db.select().from(productCodes).orderBy(asc(productCodes.id));
    expect(rows.map((r) => [r.hashVersion, r.withdrawnAt !== null])).toEqual([
      [2, false],
      [2, true],
      [2, false],
    ]);
    const audited = await db.select().from(auditLog).where(eq(auditLog.action, 'product.code_withdrawn'));
    expect(audited).toHaveLength(1);
    const [after] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, product!.id));
    expect(after!.stock).toBe(2);

    const host = await mp.person('Host', 'Admin');
    const res = await fetch(`${mp.urls[1]}/api/admin/products/${product!.id}/codes`, {
      method: 'POST',
      headers: { 'x-requested-with': 'kickback', 'content-type': 'application/json', cookie: host.cookie },
      body: JSON.stringify({ text: 'old-bbbb-2222' }),
    });
    expect(res.status).toBe(409);
  });
});
