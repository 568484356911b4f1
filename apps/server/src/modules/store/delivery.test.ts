/**
 * Store delivery (docs/features/points-and-store.md): products that ask for a Steam trade URL or an email, and
 * products that deliver a code from an uploaded pool in the purchase itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { deliveryDetailMessages, storeMessages } from '@kickback/common/http/store';
import { orders, productCodes, products } from '../../db/schema/store';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { codesOfOrders } from './service';
import { addProduct, givePoints, ledgerMismatches } from '../../../test/economy';

let t: TestApp;
let admin: TestUser;
/** Every admin response body of this file, searched for plaintext codes at the end. */
const adminBodies: string[] = [];
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Keeper' });
});
afterAll(async () => {
  await t.close();
});

const TRADE_URL = 'https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbC-12_x';

const order = (as: TestUser, productId: number, deliveryDetail?: string) =>
  t.call({
    method: 'POST',
    url: '/api/Order/OrderProduct',
    as,
    body: deliveryDetail === undefined ? { productId } : { productId, deliveryDetail },
  });

async function asAdmin(opts: { method?: 'GET' | 'POST' | 'PUT'; url: string; body?: unknown }) {
  const res = await t.call({ ...opts, as: admin });
  adminBodies.push(res.body);
  return res;
}

const upload = (productId: number, text: string) =>
  asAdmin({ method: 'POST', url: `/api/admin/products/${productId}/codes`, body: { text } });

async function buyer(points = '1000'): Promise<TestUser> {
  const b = await t.signIn();
  await givePoints(t, b.user.id, points);
  return b;
}

async function fulfilmentOf(orderId: number) {
  const list = await asAdmin({ url: '/api/admin/fulfilment?kind=order' });
  return (list.json().items as Array<{ id: number; reference: string } & Record<string, unknown>>).find(
    (i) => i.reference === String(orderId),
  );
}

describe('delivery details: Steam trade URL and email', () => {
  it('a skin asks for a valid Steam trade URL: refused without one (400, nothing changed), stored with it, shown in Fulfilment', async () => {
    const skin = await addProduct(t, { name: 'AK Redline', price: '100', stock: 2, delivery: 'steam_trade_url' });
    const b = await buyer('150');
    for (const bad of [
      undefined,
      '',
      'https://steamcommunity.com/tradeoffer/new/?partner=123456789',
      'http://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbC-12_x',
      'https://steamcommunity.com.evil.example/tradeoffer/new/?partner=1&token=AbC-12_x',
      'https://steamcommunity.com/tradeoffer/new/?partner=99999999999&token=AbC-12_x',
      'someone@example.com',
    ]) {
      const res = await order(b, skin.id, bad);
      expect([res.statusCode, res.json().message], String(bad)).toEqual([400, deliveryDetailMessages.steam_trade_url]);
    }
    expect((await t.reload(b.user.id)).points).toBe('150.00');
    const [left] = await t.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, skin.id));
    expect(left?.stock).toBe(2);

    const ok = await order(b, skin.id, `  ${TRADE_URL} `);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: storeMessages.orderPlaced('AK Redline'), code: null });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, ok.json().orderId));
    expect(row?.deliveryDetail).toBe(TRADE_URL);
    expect(await fulfilmentOf(ok.json().orderId)).toMatchObject({
      status: 'pending',
      delivery: { kind: 'steam_trade_url', detail: TRADE_URL },
    });
    const mine = await t.call({ url: '/api/me/orders', as: b });
    expect(mine.json().items[0]).toMatchObject({ productName: 'AK Redline', deliveryDetail: TRADE_URL, code: null });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('a gift card asks for an email; a product that asks nothing ignores a detail', async () => {
    const card = await addProduct(t, { name: 'Gift card', price: '10', delivery: 'email' });
    const plain = await addProduct(t, { name: 'Shout-out', price: '10' });
    const b = await buyer('100');
    for (const bad of ['not-an-email', TRADE_URL, undefined]) {
      const res = await order(b, card.id, bad);
      expect([res.statusCode, res.json().message]).toEqual([400, deliveryDetailMessages.email]);
    }
    const ok = await order(b, card.id, 'fan@example.com');
    expect(ok.statusCode).toBe(200);
    expect(await fulfilmentOf(ok.json().orderId)).toMatchObject({
      delivery: { kind: 'email', detail: 'fan@example.com' },
    });
    const other = await order(b, plain.id, 'fan@example.com');
    expect(other.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, other.json().orderId));
    expect(row?.deliveryDetail).toBeNull();
    expect(await fulfilmentOf(other.json().orderId)).toMatchObject({ delivery: { kind: 'none', detail: null } });
    expect((await order(b, plain.id, 'x'.repeat(301))).statusCode).toBe(400);
  });

  it('admins choose the delivery kind in the product form; a bad one is a 400', async () => {
    const body = { name: 'Knife', price: 5, category: 'Skins', stock: 1, delivery: 'steam_trade_url' };
    const created = await asAdmin({ method: 'POST', url: '/api/admin/products', body });
    expect(created.json()).toMatchObject({ delivery: 'steam_trade_url', codes: null });
    const bad = await asAdmin({ method: 'POST', url: '/api/admin/products', body: { ...body, delivery: 'pigeon' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.call({ url: '/api/Product/GetProducts' })).json().data).toContainEqual(
      expect.objectContaining({ id: created.json().id, delivery: 'steam_trade_url' }),
    );
  });
});

describe('instant codes', () => {
  async function codeProduct(name: string, price = '10') {
    const res = await asAdmin({
      method: 'POST',
      url: '/api/admin/products',
      body: { name, price, category: 'Gift cards', stock: 99, delivery: 'code' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ stock: 0, codes: { available: 0, sold: 0 } });
    return res.json() as { id: number };
  }

  it('uploads pasted or CSV codes, refuses duplicates by name, seals them, and never lists them back', async () => {
    const p = await codeProduct('Game key');
    const denied = await t.call({
      method: 'POST',
      url: `/api/admin/products/${p.id}/codes`,
      as: await t.signIn(),
      body: { text: 'X' },
    });
    expect(denied.statusCode).toBe(403);

    const first = await upload(p.id, 'KEY-AAAA-1111\n\nKEY-BBBB-2222\r\n');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ added: 2, pool: { available: 2, sold: 0 } });
    expect(
      first
        .json()
        .pool.codes.map((c: { masked: string }) => c.masked)
        .sort(),
    ).toEqual(['••••1111', '••••2222']);

    const csv = await upload(p.id, 'code,value\n"KEY-CCCC-3333",20\nKEY-DDDD-4444,20\n');
    expect(csv.json()).toMatchObject({ added: 2, pool: { available: 4 } });

    const within = await upload(p.id, 'NEW-1\nNEW-2\nNEW-1');
    expect(within.statusCode).toBe(400);
    expect(within.json().message).toContain('Repeated in this upload: NEW-1');
    const against = await upload(p.id, 'KEY-BBBB-2222\nKEY-DDDD-4444');
    expect(against.statusCode).toBe(409);
    expect(against.json().message).toBe(
      "Nothing was added. Refused: KEY-BBBB-2222 (already in this product's pool), KEY-DDDD-4444 (already in this product's pool)",
    );
    const partly = await upload(p.id, 'NEW-3\nKEY-BBBB-2222');
    expect(partly.json()).toMatchObject({
      message: "Added 1 code; 5 available. Refused: KEY-BBBB-2222 (already in this product's pool)",
      added: 1,
      refused: 1,
    });
    expect((await upload(p.id, '\n \n')).statusCode).toBe(400);

    const pool = await asAdmin({ url: `/api/admin/products/${p.id}/codes` });
    expect(pool.json()).toMatchObject({ available: 5, sold: 0 });
    const [stock] = await t.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, p.id));
    expect(stock?.stock).toBe(5);

    // At rest: neither the sealed text nor the hash contains the code.
    const rows = await t.database.db.select().from(productCodes).where(eq(productCodes.productId, p.id));
    expect(rows).toHaveLength(5);
    for (const r of rows) {
      expect(r.sealed).not.toContain('KEY-');
      expect(r.codeHash).not.toContain('KEY-');
    }

    // A product that is not a code product takes no codes; a code product's stock is its pool.
    const plain = await addProduct(t, { name: 'Plain' });
    expect((await upload(plain.id, 'Z-1')).json().message).toBe(storeMessages.codesOnlyForCodeProducts);
    const edit = await asAdmin({
      method: 'PUT',
      url: `/api/admin/products/${p.id}`,
      body: { name: 'Game key', price: 10, category: 'Gift cards', stock: 500, delivery: 'code' },
    });
    expect(edit.json()).toMatchObject({ stock: 5, codes: { available: 5 } });
    const away = await asAdmin({
      method: 'PUT',
      url: `/api/admin/products/${p.id}`,
      body: { name: 'Game key', price: 10, category: 'Gift cards', stock: 500, delivery: 'none' },
    });
    expect(away.statusCode).toBe(409);
  });

  it('a code is unique across every pool, sold or not: another product refuses it and names it', async () => {
    const a = await codeProduct('Pool A', '5');
    const b = await codeProduct('Pool B', '5');
    expect((await upload(a.id, 'CROSS-AAAA-1111')).json()).toMatchObject({ added: 1 });
    const viewer = await buyer('5');
    expect((await order(viewer, a.id)).json().code).toBe('CROSS-AAAA-1111');

    const again = await upload(b.id, 'CROSS-AAAA-1111\nCROSS-CCCC-3333');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      message: "Added 1 code; 1 available. Refused: CROSS-AAAA-1111 (already in another product's pool)",
      added: 1,
      refused: 1,
      pool: { available: 1, sold: 0 },
    });
    const only = await upload(a.id, 'CROSS-CCCC-3333');
    expect([only.statusCode, only.json().message]).toEqual([
      409,
      "Nothing was added. Refused: CROSS-CCCC-3333 (already in another product's pool)",
    ]);
    // The second viewer gets the one code B really has, never the one already sold by A.
    const other = await buyer('5');
    expect((await order(other, b.id)).json().code).toBe('CROSS-CCCC-3333');
    expect((await order(other, b.id)).statusCode).toBe(409);
  });

  it('one code in other spellings (case, dashes, spaces, zero-width, full-width) is the same code everywhere', async () => {
    const a = await codeProduct('Spelling A', '5');
    const b = await codeProduct('Spelling B', '5');
    expect((await upload(a.id, 'GIFT-ABCD-1234')).json()).toMatchObject({ added: 1 });
    for (const spelling of ['gift-abcd-1234', 'GIFT ABCD 1234', 'GIFT\u200BABCD\u20131234', 'ＧＩＦＴ－ＡＢＣＤ－１２３４']) {
      const res = await upload(b.id, spelling);
      expect([res.statusCode, res.json().message], spelling).toEqual([
        409,
        `Nothing was added. Refused: ${spelling} (already in another product's pool)`,
      ]);
    }
    const twice = await upload(b.id, 'NEW-CODE-9\nnew code 9');
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toMatch(/Repeated in this upload: new code 9/);
  });

  it('a purchase takes one code with the payment, shows it to the buyer only, and its Fulfilment entry is delivered', async () => {
    const p = await codeProduct('Steam card', '25');
    await upload(p.id, 'CARD-ONE-0001\nCARD-TWO-0002');
    const a = await buyer('25');
    const b = await buyer('100');

    const res = await order(a, p.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: storeMessages.codeDelivered('Steam card'), code: 'CARD-ONE-0001' });
    expect((await t.reload(a.user.id)).points).toBe('0.00');

    const mineA = (await t.call({ url: '/api/me/orders', as: a })).json();
    expect(mineA.items[0]).toMatchObject({ productName: 'Steam card', status: 'delivered', code: 'CARD-ONE-0001' });
    const mineB = (await t.call({ url: '/api/me/orders', as: b })).json();
    expect(JSON.stringify(mineB)).not.toContain('CARD-');

    const item = await fulfilmentOf(res.json().orderId);
    expect(item).toMatchObject({ status: 'delivered', delivery: { kind: 'code', detail: null } });
    // Delivered items cannot be rejected (nor refunded) afterwards.
    const reject = await asAdmin({
      method: 'POST',
      url: `/api/admin/fulfilment/${item!.id}/reject`,
    });
    expect(reject.statusCode).toBe(409);

    // Opening codes is for the buyer's own orders only, whatever ids are asked for.
    const orderA = res.json().orderId as number;
    expect([...(await codesOfOrders(t.database.db, t.app.config.codeKey, b.user.id, [orderA]))]).toEqual([]);
    expect([...(await codesOfOrders(t.database.db, t.app.config.codeKey, a.user.id, [orderA]))]).toEqual([
      [orderA, 'CARD-ONE-0001'],
    ]);

    expect((await order(b, p.id)).json().code).toBe('CARD-TWO-0002');
    const soldOut = await order(b, p.id);
    expect([soldOut.statusCode, soldOut.json().message]).toEqual([409, storeMessages.soldOut]);
    const catalogue = (await t.call({ url: '/api/Product/GetProducts' })).json();
    expect(catalogue.data.find((x: { id: number }) => x.id === p.id)).toMatchObject({ stock: 0 });
    expect((await asAdmin({ url: `/api/admin/products/${p.id}/codes` })).json()).toMatchObject({
      available: 0,
      sold: 2,
    });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('no admin response of this file ever carried a code after its upload', async () => {
    for (const url of ['/api/admin/products', '/api/admin/fulfilment', '/api/admin/audit']) await asAdmin({ url });
    const uploads = adminBodies.filter((bd) => bd.includes('"added"') || bd.includes('"pool"'));
    expect(uploads.length).toBeGreaterThan(0);
    const everyCode = [
      'KEY-AAAA-1111',
      'KEY-BBBB-2222',
      'KEY-CCCC-3333',
      'KEY-DDDD-4444',
      'NEW-3',
      'CARD-ONE-0001',
      'CARD-TWO-0002',
    ];
    const leaks = adminBodies.flatMap((bd) => everyCode.filter((c) => bd.includes(c)));
    // The only admin bodies naming a code are the refusals of a duplicate upload (the admin's own input).
    expect(new Set(leaks)).toEqual(new Set(['KEY-BBBB-2222', 'KEY-DDDD-4444']));
  });
});
