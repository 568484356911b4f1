/**
 * Challenges: the public list (configured category only, cancelled never), the admin CRUD with
 * its validation, and the prize that completing a challenge with a winner queues — exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema/audit';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';

let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  alice = await t.signIn({ name: 'Alice' });
  bob = await t.signIn({ name: 'Bob' });
});
afterAll(async () => {
  await t.close();
});

const create = (body: unknown, as: TestUser | null = admin) =>
  t.call({ method: 'POST', url: '/api/Challenge/create', as, body });
const update = (body: unknown, as: TestUser | null = admin) =>
  t.call({ method: 'POST', url: '/api/Challenge/update', as, body });

async function createOk(body: Record<string, unknown>) {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; title: string; price: number; category: string; imageUrl: string };
}

const prizeItems = (id: number) =>
  t.database.db
    .select()
    .from(fulfilmentItems)
    .where(and(eq(fulfilmentItems.kind, 'challenge'), eq(fulfilmentItems.reference, `challenge:${id}`)));

describe('access', () => {
  it('answers 401 without sign-in and 403 for a non-admin on every admin call; the public list is open', async () => {
    for (const as of [null, alice]) {
      const status = as ? 403 : 401;
      expect((await t.call({ url: '/api/Challenge/getall', as })).statusCode).toBe(status);
      expect((await create({ title: 'x', price: 1 }, as)).statusCode).toBe(status);
      expect((await update({ id: 1, title: 'x', price: 1, status: 0 }, as)).statusCode).toBe(status);
    }
    expect((await t.call({ url: '/api/Challenge/getuserchallenges' })).statusCode).toBe(200);
  });
});

describe('POST /api/Challenge/create', () => {
  it('creates a challenge (Active, the configured category by default) and audits it', async () => {
    const res = await create({ title: '  Hit 1000x on {Gates of Olympus}  ', price: '250.5', description: 'Bet {$1}' });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    expect(c).toMatchObject({
      title: 'Hit 1000x on {Gates of Olympus}',
      price: 250.5,
      description: 'Bet {$1}',
      category: 'Roobet',
      imageUrl: '',
      status: 0,
      endedAt: null,
      winnerUserId: null,
      winnerUserName: null,
    });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(c.id)));
    expect(audit).toMatchObject({ action: 'challenge.create', actorLabel: 'Host' });
  });

  it.each([
    [{ price: 5 }, 'title'],
    [{ title: '   ', price: 5 }, 'title'],
    [{ title: 'No price' }, 'price'],
    [{ title: 'Bad price', price: 'ten' }, 'price'],
    [{ title: 'Bad price', price: '' }, 'price'],
    [{ title: 'Bad price', price: null }, 'price'],
    [{ title: 'Cents', price: 1.234 }, 'price'],
    [{ title: 'Negative', price: -1 }, 'price'],
    [{ title: 'Image', price: 1, imageUrl: 'javascript:alert(1)' }, 'imageUrl'],
  ])('refuses %j with 400 naming %s, and creates nothing', async (body, field) => {
    const before = (await t.call({ url: '/api/Challenge/getall', as: admin })).json().length;
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect((res.json() as { fields: Array<{ path: string }> }).fields.map((f) => f.path)).toContain(field);
    expect((await t.call({ url: '/api/Challenge/getall', as: admin })).json()).toHaveLength(before);
  });
});

describe('POST /api/Challenge/update', () => {
  it('validates like create, and the status as a number', async () => {
    const c = await createOk({ title: 'Validate me', price: 10 });
    const base = { id: c.id, title: 'ok', price: 10, status: 0 };
    for (const [body, field] of [
      [{ ...base, title: '' }, 'title'],
      [{ ...base, price: 'abc' }, 'price'],
      [{ ...base, status: '1' }, 'status'],
      [{ ...base, status: 7 }, 'status'],
      [{ ...base, winnerUserId: 'nobody' }, 'winnerUserId'],
    ] as const) {
      const res = await update(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as { fields: Array<{ path: string }> }).fields.map((f) => f.path)).toContain(field);
    }
    expect((await update({ ...base, id: 999_999 })).statusCode).toBe(404);
  });

  it('keeps the existing winner when the winner is left empty', async () => {
    const c = await createOk({ title: 'Keep winner', price: 5 });
    let res = await update({ id: c.id, title: 'Keep winner', price: 5, status: 0, winnerUserId: alice.user.id });
    expect(res.json()).toMatchObject({ winnerUserId: alice.user.id, winnerUserName: 'Alice' });
    res = await update({ id: c.id, title: 'Keep winner (edited)', price: 5, status: 0, winnerUserId: '' });
    expect(res.json()).toMatchObject({ title: 'Keep winner (edited)', winnerUserId: alice.user.id });
    res = await update({ id: c.id, title: 'Keep winner', price: 5, status: 0 });
    expect(res.json().winnerUserId).toBe(alice.user.id);
  });

  it('completing with a winner queues the prize once, in USD, and records the end time', async () => {
    t.clock.set('2026-03-04T18:30:00Z');
    const c = await createOk({ title: 'Land a {5 scatter} bonus', price: 125.75 });
    const done = { id: c.id, title: c.title, price: 125.75, status: 1, winnerUserId: bob.user.id };
    const res = await update(done);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 1, endedAt: '2026-03-04T18:30:00.000Z', winnerUserName: 'Bob' });
    let items = await prizeItems(c.id);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      userId: bob.user.id,
      amount: '125.75',
      unit: 'USD',
      status: 'pending',
      description: 'Challenge prize: Land a 5 scatter bonus',
    });

    // Saving again (edits, same winner) queues nothing more and keeps the end time.
    t.clock.advance(60_000);
    const again = await update({ ...done, description: 'edited', winnerUserId: '' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().endedAt).toBe('2026-03-04T18:30:00.000Z');
    await Promise.all([update(done), update(done), update(done)]);
    items = await prizeItems(c.id);
    expect(items).toHaveLength(1);

    // Another winner after the prize was queued: refused, nothing changes.
    const other = await update({ ...done, winnerUserId: alice.user.id });
    expect(other.statusCode).toBe(409);
    const all = (await t.call({ url: '/api/Challenge/getall', as: admin })).json() as Array<{
      id: number;
      winnerUserId: string;
    }>;
    expect(all.find((x) => x.id === c.id)?.winnerUserId).toBe(bob.user.id);

    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'challenge.update'), eq(auditLog.targetId, String(c.id))));
    expect(audits.length).toBeGreaterThanOrEqual(2);
    expect(audits[0]!.before).toMatchObject({ status: 'Active' });
    expect(audits[0]!.after).toMatchObject({ status: 'Completed', winnerUserId: bob.user.id });
  });

  it('completing without a winner queues nothing; the prize follows once a winner is set', async () => {
    const c = await createOk({ title: 'No winner yet', price: 20 });
    await update({ id: c.id, title: c.title, price: 20, status: 1 });
    expect(await prizeItems(c.id)).toHaveLength(0);
    await update({ id: c.id, title: c.title, price: 20, status: 1, winnerUserId: alice.user.id });
    expect(await prizeItems(c.id)).toHaveLength(1);
  });
});

describe('GET /api/Challenge/getuserchallenges', () => {
  it('lists active and completed challenges of the configured category only; cancelled never', async () => {
    const active = await createOk({ title: 'Public active', price: 50, category: 'Roobet' });
    const ended = await createOk({ title: 'Public ended', price: 60, category: 'Roobet' });
    const cancelled = await createOk({ title: 'Public cancelled', price: 70, category: 'Roobet' });
    const other = await createOk({ title: 'Other site', price: 80, category: 'Clash' });
    await update({ id: ended.id, title: 'Public ended', price: 60, status: 1, winnerUserId: alice.user.id });
    await update({ id: cancelled.id, title: 'Public cancelled', price: 70, status: 2 });

    const res = await t.call({ url: '/api/Challenge/getuserchallenges' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      challenges: Array<{ id: number; status: number; winnerUserName: string | null }>;
      categories: string[];
    };
    expect(body.categories).toEqual(['Roobet']);
    const ids = body.challenges.map((c) => c.id);
    expect(ids).toContain(active.id);
    expect(ids).toContain(ended.id);
    expect(ids).not.toContain(cancelled.id);
    expect(ids).not.toContain(other.id);
    expect(body.challenges.every((c) => c.status === 0 || c.status === 1)).toBe(true);
    expect(body.challenges.find((c) => c.id === ended.id)?.winnerUserName).toBe('Alice');

    // The admin list has everything.
    const all = (await t.call({ url: '/api/Challenge/getall', as: admin })).json() as Array<{ id: number }>;
    expect(all.map((c) => c.id)).toEqual(expect.arrayContaining([cancelled.id, other.id]));
  });
});

describe('messages', () => {
  it('says plainly what is wrong with a price', async () => {
    for (const price of ['', null, undefined]) {
      const res = await create({ title: 'Plain', price });
      expect(res.json().message).toBe('Enter a price.');
    }
    for (const price of ['ten', true]) {
      const res = await create({ title: 'Plain', price });
      expect(res.json().message).toBe('Enter the price as a number, like 250 or 12.50.');
    }
    expect((await create({ price: 1 })).json().message).toBe('Enter a title.');
  });

  it('names every missing field at once, each with its own message', async () => {
    const res = await create({});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Enter a title.',
      fields: [
        { path: 'title', message: 'Enter a title.' },
        { path: 'price', message: 'Enter a price.' },
      ],
    });
  });

  it('refuses a description over 2000 characters instead of cutting it, and saves nothing', async () => {
    const before = (await t.call({ url: '/api/Challenge/getall', as: admin })).json() as unknown[];
    const res = await create({ title: 'Too long', price: 5, description: 'd'.repeat(5000) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Keep the description to 2000 characters or fewer.',
      fields: [{ path: 'description', message: 'Keep the description to 2000 characters or fewer.' }],
    });
    const after = (await t.call({ url: '/api/Challenge/getall', as: admin })).json() as unknown[];
    expect(after).toHaveLength(before.length);
    // 2000 exactly is kept whole.
    const ok = await createOk({ title: 'Just fits', price: 5, description: 'd'.repeat(2000) });
    expect((ok as unknown as { description: string }).description).toHaveLength(2000);
  });
});
