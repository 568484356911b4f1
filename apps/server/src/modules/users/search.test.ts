import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Zed Admin' });
  for (const name of ['Alpha', 'alfred', 'Al_ice', 'Bob', 'Bot Account']) await t.signIn({ name });
  const linked = await t.signIn({ name: 'Alvin' });
  await t.database.db
    .update(users)
    .set({ discordId: '111', discordUsername: 'alvin#1' })
    .where(eq(users.id, linked.user.id));
  const bot = await t.signIn({ name: 'Alpine Bot' });
  await t.database.db.update(users).set({ excluded: true }).where(eq(users.id, bot.user.id));
  for (let i = 0; i < 25; i++) await t.signIn({ name: `zz${String(i).padStart(2, '0')}` });
});
afterAll(async () => {
  await t.close();
});

const search = (q: string) => t.call({ url: `/api/user/search?${q}`, as: admin });

describe('GET /api/user/search', () => {
  it('matches a username prefix case-insensitively, in name order, without excluded accounts', async () => {
    const res = await search('query=AL');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((o: { label: string }) => o.label)).toEqual(['Al_ice', 'alfred', 'Alpha', 'Alvin']); // byte order: the same on every database
  });

  it('treats LIKE wildcards in the query as plain text', async () => {
    expect((await search('query=al_')).json().map((o: { label: string }) => o.label)).toEqual(['Al_ice']);
    expect((await search('query=%25')).json()).toEqual([]);
  });

  it('returns at most 20 options, with the option shape of packages/common', async () => {
    const res = await search('query=zz');
    expect(res.json()).toHaveLength(20);
    expect(res.json()[0]).toEqual({
      value: expect.any(String),
      label: 'zz00',
      avatarUrl: null,
      kickUsername: null,
      discordUsername: null,
    });
  });

  it('filters to Discord-linked users with is_discord_linked=1', async () => {
    const res = await search('query=&is_discord_linked=1');
    expect(res.json().map((o: { label: string }) => o.label)).toEqual(['Alvin']);
  });

  it('is admin only', async () => {
    const user = await t.signIn();
    expect((await t.call({ url: '/api/user/search?query=a' })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/user/search?query=a', as: user })).statusCode).toBe(403);
  });

  it('refuses an over-long query with 400', async () => {
    const res = await search(`query=${'a'.repeat(65)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/query/);
  });
});
