import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { storeMessages } from '@kickback/common/http/store';
import { auditLog } from '../../db/schema/audit';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { givePoints } from '../../../test/economy';
import { describeRace, useRaceApp } from '../../../test/race-database';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Shopkeeper' });
});
afterAll(async () => {
  await t.close();
});

const create = (body: unknown, as: TestUser | null = admin) =>
  t.call({ method: 'POST', url: '/api/admin/products', as, body });

const valid = {
  name: 'Steam Gift Card $20',
  price: 8000,
  imageUrl: '/store/steam-10.svg',
  category: 'Gift cards',
  stock: 4,
};

describe('Admin: Products API', () => {
  it('creates, edits, deactivates and reactivates products; the store follows; all audited', async () => {
    const res = await create(valid);
    expect(res.statusCode).toBe(200);
    const p = res.json();
    const { imageUrl, ...rest } = valid;
    expect(p).toMatchObject({ ...rest, image: imageUrl, active: true, sold: 0 });

    const edit = await t.call({
      method: 'PUT',
      url: `/api/admin/products/${p.id}`,
      as: admin,
      body: { ...valid, name: 'Steam Gift Card $25', price: '9999.99', stock: null, imageUrl: '' },
    });
    expect(edit.json()).toMatchObject({ name: 'Steam Gift Card $25', price: 9999.99, stock: null, image: null });

    const off = await t.call({
      method: 'POST',
      url: `/api/admin/products/${p.id}/active`,
      as: admin,
      body: { active: false },
    });
    expect(off.json().active).toBe(false);
    expect((await t.call({ url: '/api/Product/GetProducts' })).json().data).toEqual([]);
    const buyer = await t.signIn();
    await givePoints(t, buyer.user.id, '10000');
    const refused = await t.call({
      method: 'POST',
      url: '/api/Order/OrderProduct',
      as: buyer,
      body: { productId: p.id },
    });
    expect([refused.statusCode, refused.json().message]).toEqual([409, storeMessages.inactive]);

    await t.call({ method: 'POST', url: `/api/admin/products/${p.id}/active`, as: admin, body: { active: true } });
    expect((await t.call({ url: '/api/Product/GetProducts' })).json().data).toHaveLength(1);
    expect(
      (await t.call({ method: 'POST', url: '/api/Order/OrderProduct', as: buyer, body: { productId: p.id } }))
        .statusCode,
    ).toBe(200);
    const list = (await t.call({ url: '/api/admin/products', as: admin })).json();
    expect(list[0]).toMatchObject({ id: p.id, sold: 1 });

    const actions = (
      await t.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.targetId, String(p.id)))
    ).map((a) => a.action);
    expect(actions).toEqual(['product.create', 'product.update', 'product.deactivate', 'product.reactivate']);
    const [update] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'product.update'));
    expect(update?.before).toMatchObject({ name: 'Steam Gift Card $20', price: '8000.00', stock: 4 });
    expect(update?.after).toMatchObject({ name: 'Steam Gift Card $25', price: '9999.99', stock: null });
  });

  it('refuses bad products with 400 naming the field, and changes nothing', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ price: -5 }, /price: must be greater than 0/],
      [{ price: 0 }, /price/],
      [{ price: 'cheap' }, /price: must be a number/],
      [{ price: 1.234 }, /price/],
      [{ price: true }, /price/],
      // Sentences that name their field, the same in the product dialog and the toast.
      [{ name: '  ' }, /^Enter the product name\.$/],
      [{ category: '' }, /^Enter the category\.$/],
      [{ name: 'x'.repeat(101) }, /^Keep the product name to 100 characters or fewer\.$/],
      [{ stock: -1 }, /stock/],
      [{ stock: 2.5 }, /stock/],
      [{ imageUrl: 'javascript:alert(1)' }, /imageUrl/],
    ];
    const before = (await t.call({ url: '/api/admin/products', as: admin })).json().length;
    for (const [patch, message] of cases) {
      const res = await create({ ...valid, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await t.call({ url: '/api/admin/products', as: admin })).json()).toHaveLength(before);
    expect(
      (await t.call({ method: 'PUT', url: '/api/admin/products/999999', as: admin, body: valid })).statusCode,
    ).toBe(404);
  });

  it('refuses (409) a name another product has, trimmed and in any case, and changes nothing', async () => {
    const first = (await create({ ...valid, name: 'Knife skin' })).json();
    const other = (await create({ ...valid, name: 'Glove skin' })).json();
    const count = async () => (await t.call({ url: '/api/admin/products', as: admin })).json().length;
    const before = await count();

    const again = await create({ ...valid, name: '  KNIFE skin ' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(storeMessages.nameTaken('Knife skin'));
    expect(await count()).toBe(before);

    const rename = await t.call({
      method: 'PUT',
      url: `/api/admin/products/${other.id}`,
      as: admin,
      body: { ...valid, name: 'knife skin' },
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().message).toBe(storeMessages.nameTaken('Knife skin'));
    const list = (await t.call({ url: '/api/admin/products', as: admin })).json() as Array<{
      id: number;
      name: string;
    }>;
    expect(list.find((p) => p.id === other.id)?.name).toBe('Glove skin');

    // Saving a product under its own name (or a new case of it) is not a clash.
    const keep = await t.call({
      method: 'PUT',
      url: `/api/admin/products/${first.id}`,
      as: admin,
      body: { ...valid, name: 'Knife Skin', price: 100 },
    });
    expect(keep.statusCode).toBe(200);
  });

  it('is admin only', async () => {
    const user = await t.signIn();
    expect((await create(valid, null)).statusCode).toBe(401);
    expect((await create(valid, user)).statusCode).toBe(403);
    expect((await t.call({ url: '/api/admin/products', as: user })).statusCode).toBe(403);
  });
});

describeRace('store: ten admins create one name at once', () => {
  // The file's app runs on PGlite: this block has its own, on PostgreSQL.
  useRaceApp(async (app) => {
    const saved = { t, admin };
    t = app;
    admin = await app.signIn({ role: 'Admin', name: 'Shopkeeper' });
    return () => ({ t, admin } = saved);
  });

  it('ten admins creating the same new name at once: exactly one product', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => create({ ...valid, name: 'Race skin' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...new Array(9).fill(409)]);
    const list = (await t.call({ url: '/api/admin/products', as: admin })).json() as Array<{ name: string }>;
    expect(list.filter((p) => p.name === 'Race skin')).toHaveLength(1);
  });
});
