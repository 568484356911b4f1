/**
 * The one-time re-hash of store codes hashed as typed (docs/features/points-and-store.md): after it,
 * another spelling of an old code is refused; two old codes of one card are resolved (the sold one
 * kept, else the earlier; an unsold duplicate withdrawn from sale and audited) without a unique-index
 * crash; a second run, or two at once, change nothing more; without the key it waits.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, inArray } from 'drizzle-orm';
import { auditLog } from '../../db/schema/audit';
import { productCodes, products, type ProductRow } from '../../db/schema/store';
import { buildTestApp, LogCapture, type TestApp, type TestUser } from '../../../test/app';
import { addProduct, givePoints } from '../../../test/economy';
import { maskedTail } from './codes';
import { rehashStoreCodes } from './rehash';
import { codeVault } from './service';

let t: TestApp;
let admin: TestUser;
const logs = new LogCapture();
beforeAll(async () => {
  t = await buildTestApp({ logs });
  admin = await t.signIn({ role: 'Admin', name: 'Keeper' });
});
afterAll(async () => {
  await t.close();
});

const key = () => t.config.codeKey!;

/** A code stored the way uploads did before the normal form: its HMAC over the code as typed. */
async function oldCode(product: ProductRow, code: string): Promise<number> {
  const hashKey = createHmac('sha256', key()).update('kickback-code-hash').digest();
  const [row] = await t.database.db
    .insert(productCodes)
    .values({
      productId: product.id,
      codeHash: createHmac('sha256', hashKey).update(code, 'utf8').digest('base64url'),
      hashVersion: 1,
      sealed: codeVault(key())!.seal(code),
      tail: maskedTail(code),
    })
    .returning({ id: productCodes.id });
  await t.database.db
    .update(products)
    .set({ stock: (product.stock ?? 0) + 1 })
    .where(eq(products.id, product.id));
  product.stock = (product.stock ?? 0) + 1;
  return row!.id;
}

const codeProduct = (name: string) => addProduct(t, { name, price: '10', stock: 0, delivery: 'code' });
const upload = (productId: number, text: string) =>
  t.call({ method: 'POST', url: `/api/admin/products/${productId}/codes`, as: admin, body: { text } });
const rehash = () => rehashStoreCodes(t.database, key(), t.app.log);
const codeRows = (ids: number[]) =>
  t.database.db.select().from(productCodes).where(inArray(productCodes.id, ids)).orderBy(asc(productCodes.id));
const stockOf = async (id: number) =>
  (await t.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
const withdrawals = () =>
  t.database.db.select().from(auditLog).where(eq(auditLog.action, 'product.code_withdrawn')).orderBy(asc(auditLog.id));

async function buy(productId: number) {
  const b = await t.signIn();
  await givePoints(t, b.user.id, '100');
  return t.call({ method: 'POST', url: '/api/Order/OrderProduct', as: b, body: { productId } });
}

describe('re-hashing codes uploaded before the normal form', () => {
  it('waits without the key: nothing changes and the log says how many codes wait', async () => {
    const p = await codeProduct('Waiting');
    const id = await oldCode(p, 'WAIT-0000-1111');
    const [before] = await codeRows([id]);
    const result = await rehashStoreCodes(t.database, null, t.app.log);
    expect(result.waiting).toBeGreaterThanOrEqual(1);
    expect(await codeRows([id])).toEqual([before]);
    expect(
      logs.lines.some((l) => String(l.msg).includes('re-hashed at the first start with CODE_ENCRYPTION_KEY')),
    ).toBe(true);
  });

  it('refuses another spelling of an old code, resolves one card stored twice, and a second run changes nothing', async () => {
    const a = await codeProduct('Gift cards A');
    const b = await codeProduct('Gift cards B');
    const c = await codeProduct('Gift cards C');
    const plain = await oldCode(a, 'GIFT-AAAA-1111');
    // Two unsold old codes, one card: the earlier (in A) is kept, the later (in B) withdrawn.
    const firstB = await oldCode(a, 'GIFT-BBBB-2222');
    const laterB = await oldCode(b, 'gift bbbb 2222');
    // An unsold old code (in B), and the same card sold from another pool (C): the sold one is kept.
    const unsoldE = await oldCode(b, 'GIFT-EEEE-5555');
    const soldE = await oldCode(c, 'gifteeee5555');
    const sale = await buy(c.id);
    expect(sale.statusCode).toBe(200);
    expect(sale.json().code).toBe('gifteeee5555');
    // Before the re-hash, another spelling of an old code passes as a new card (the fault).
    const d = await codeProduct('Gift cards D');
    const pre = await oldCode(d, 'GIFT-CCCC-3333');
    const uploaded = await upload(d.id, 'gift cccc 3333');
    expect(uploaded.statusCode).toBe(200);
    const newC = uploaded.json().pool.codes[0].id as number;
    // An upload hashes the normal form and says so: it is not re-hashed.
    expect((await codeRows([newC]))[0]!.hashVersion).toBe(2);

    const first = await rehash();
    expect(first).toMatchObject({ withdrawn: 3, soldTwice: 0, unreadable: 0 });

    // Another spelling of the old codes is refused now, in any pool.
    const again = await upload(b.id, 'gift-aaaa-1111');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("Nothing was added. Refused: gift-aaaa-1111 (already in another product's pool)");
    for (const spelling of ['GIFT AAAA 1111', 'ＧＩＦＴ－ＡＡＡＡ－１１１１', 'gift\u200baaaa1111'])
      expect((await upload(a.id, spelling)).statusCode).toBe(409);

    // Duplicates: kept ones hold the card's hash, withdrawn ones are marked and never sold.
    const rows = await codeRows([plain, firstB, laterB, unsoldE, soldE, pre, newC]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const r of rows) expect(r.hashVersion).toBe(2);
    expect(byId.get(plain)!.withdrawnAt).toBeNull();
    expect(byId.get(firstB)!.withdrawnAt).toBeNull();
    expect(byId.get(laterB)!.withdrawnAt).not.toBeNull();
    expect(byId.get(laterB)!.codeHash).toBe(`${byId.get(firstB)!.codeHash}~dup~${laterB}`);
    expect(byId.get(soldE)!.orderId).not.toBeNull();
    expect(byId.get(soldE)!.withdrawnAt).toBeNull();
    expect(byId.get(unsoldE)!.withdrawnAt).not.toBeNull();
    expect(byId.get(unsoldE)!.codeHash).toBe(`${byId.get(soldE)!.codeHash}~dup~${unsoldE}`);
    expect(byId.get(pre)!.withdrawnAt).toBeNull();
    expect(byId.get(newC)!.withdrawnAt).not.toBeNull();

    // Stock counts only codes for sale: B's two are withdrawn (nothing to buy), D keeps its old one.
    expect(await stockOf(b.id)).toBe(0);
    expect(await stockOf(d.id)).toBe(1);
    expect((await buy(b.id)).statusCode).toBe(409);
    const pool = await t.call({ url: `/api/admin/products/${b.id}/codes`, as: admin });
    expect(pool.json()).toMatchObject({ available: 0, sold: 0, withdrawn: 2 });
    expect(pool.json().codes.every((x: { withdrawn: boolean }) => x.withdrawn)).toBe(true);
    const dSale = await buy(d.id);
    expect(dSale.json().code).toBe('GIFT-CCCC-3333');

    // Each withdrawal is in the audit log, naming the code kept.
    const audited = await withdrawals();
    expect(audited.map((e) => (e.after as { codeId: number }).codeId).sort()).toEqual([laterB, unsoldE, newC].sort());
    expect(audited.find((e) => (e.after as { codeId: number }).codeId === unsoldE)!.after).toMatchObject({
      keptCodeId: soldE,
      keptSold: true,
      masked: '••••5555',
    });

    // A second run finds nothing to do.
    const snapshot = await codeRows([plain, firstB, laterB, unsoldE, soldE, pre, newC]);
    expect(await rehash()).toEqual({ rehashed: 0, withdrawn: 0, soldTwice: 0, unreadable: 0, waiting: 0 });
    expect(await codeRows([plain, firstB, laterB, unsoldE, soldE, pre, newC])).toEqual(snapshot);
    expect(await withdrawals()).toHaveLength(3);
  });

  it('a card sold twice before stays sold twice, one row marked and audited', async () => {
    const p = await codeProduct('Twice');
    const one = await oldCode(p, 'TWICE-0001');
    const two = await oldCode(p, 'twice 0001');
    expect((await buy(p.id)).statusCode).toBe(200);
    expect((await buy(p.id)).statusCode).toBe(200);
    expect(await rehash()).toMatchObject({ rehashed: 2, withdrawn: 0, soldTwice: 1 });
    const [kept, dup] = await codeRows([one, two]);
    expect(kept!.orderId).not.toBeNull();
    expect(dup!.orderId).not.toBeNull();
    expect(dup!.withdrawnAt).toBeNull();
    expect(dup!.codeHash).toBe(`${kept!.codeHash}~dup~${two}`);
  });

  it('two processes re-hashing at once resolve a duplicate once', async () => {
    const p = await codeProduct('Together');
    const ids = [await oldCode(p, 'TOGETHER-1'), await oldCode(p, 'together 1'), await oldCode(p, 'Together-2')];
    const before = (await withdrawals()).length;
    const [x, y] = await Promise.all([rehash(), rehash()]);
    expect(x.withdrawn + y.withdrawn).toBe(1);
    expect(x.rehashed + y.rehashed).toBe(3);
    expect(await withdrawals()).toHaveLength(before + 1);
    const rows = await codeRows(ids);
    expect(rows.map((r) => r.withdrawnAt !== null)).toEqual([false, true, false]);
    expect(await stockOf(p.id)).toBe(2);
  });
});
