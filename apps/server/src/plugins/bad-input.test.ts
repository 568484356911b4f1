/**
 * Inputs no schema listed one by one: a NUL character anywhere in a body, query, params or hub
 * payload is refused with a 400 naming the field (one check in front of every validator); a value
 * the database cannot hold (an id above 2^31) is a 400, never a 500, and changes nothing; a real
 * Kick chat message with a NUL in it is stored, cleaned.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { splitOrStealHub } from '@kickback/common/hubs/split-or-steal';
import { challenges } from '../db/schema/challenges';
import { chatMessages } from '../db/schema/chat';
import { buildTestApp, type TestApp, type TestUser } from '../../test/app';
import { HubClient, listen, WallClock } from '../../test/hub-client';
import { chatPayload, postDelivery, signedDelivery } from '../../test/kick';

let t: TestApp;
let url: string;
let admin: TestUser;
const clients: HubClient[] = [];
beforeAll(async () => {
  t = await buildTestApp({ clock: new WallClock() });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await t.close();
});

const challengeCount = async () => (await t.database.db.select({ n: count() }).from(challenges))[0]!.n;

describe('NUL characters', () => {
  it('are refused in any admin body field with a 400 that names it, and nothing is written', async () => {
    const before = await challengeCount();
    for (const body of [
      { title: 'Win\u0000', price: 5 },
      { title: 'Win', price: 5, description: 'a\u0000b' },
      { title: 'Win', price: 5, category: '\u0000' },
    ]) {
      const res = await t.call({ method: 'POST', url: '/api/Challenge/create', as: admin, body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(/^Invalid (title|description|category): must not contain NUL/);
    }
    const product = await t.call({
      method: 'POST',
      url: '/api/admin/products',
      as: admin,
      body: { name: 'Knife\u0000', price: 10, category: 'Skins' },
    });
    expect(product.statusCode, product.body).toBe(400);
    expect(product.json().message).toMatch(/NUL/);
    expect(await challengeCount()).toBe(before);
  });

  it('are refused in a query string and in a key', async () => {
    const query = await t.call({ url: '/api/admin/users?query=ab%00c', as: admin });
    expect(query.statusCode, query.body).toBe(400);
    expect(query.json().message).toBe('Invalid query: must not contain NUL characters.');
    const key = await t.call({
      method: 'POST',
      url: '/api/Challenge/create',
      as: admin,
      body: { title: 'Win', price: 5, 'x\u0000': 1 },
    });
    expect(key.statusCode).toBe(400);
  });

  it('are refused in a hub payload (SendChatMessage) with a message, and nothing is posted', async () => {
    const alice = await t.signIn({ name: 'Alice' });
    const res = await t.call({
      method: 'POST',
      url: '/api/SplitOrStealGame/create',
      as: admin,
      body: { reward: 1, counterInSeconds: 5, isPrivate: false },
    });
    const gameId = res.json().gameId as string;
    const client = new HubClient(url, splitOrStealHub, { query: { gameid: gameId }, cookie: alice.cookie });
    clients.push(client);
    await client.connected();
    const sent = await client.call('SendChatMessage', 'hello\u0000world');
    expect(sent).toEqual({ ok: false, error: 'Invalid payload: must not contain NUL characters.' });
    expect(await client.ok('GetChatMessages')).toEqual([]);
    expect(client.events('ReceiveChatMessage')).toEqual([]);
  });

  it('in a signed Kick chat message are removed and the message is stored', async () => {
    const delivery = signedDelivery(chatPayload(t, 'nully', 'gg\u0000 wp\u0000'));
    const res = await postDelivery(t, delivery);
    expect(res.statusCode, res.body).toBe(200);
    const stored = await t.database.db.select().from(chatMessages).where(eq(chatMessages.kickUsername, 'nully'));
    expect(stored.map((m) => m.content)).toEqual(['gg wp']);
    // Kick's retry of the same delivery is a duplicate of a stored message, not of a lost one.
    expect((await postDelivery(t, delivery)).statusCode).toBe(200);
  });
});

describe('integers the database cannot hold', () => {
  it('POST /api/Challenge/update with an id above 2^31 is a 400 with a message, and changes nothing', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/api/Challenge/create',
      as: admin,
      body: { title: 'Big', price: 5 },
    });
    expect(created.statusCode, created.body).toBe(200);
    const before = await t.database.db.select().from(challenges);
    for (const id of [2 ** 31, 2 ** 53 - 1]) {
      const res = await t.call({
        method: 'POST',
        url: '/api/Challenge/update',
        as: admin,
        body: { id, title: 'Changed', price: 6, status: 0 },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(/out of range/);
    }
    expect(await t.database.db.select().from(challenges)).toEqual(before);
  });

  it('an id above 2^31 in a URL is a 400 or an unknown id (404), never a 500', async () => {
    const res = await t.call({
      method: 'POST',
      url: `/api/admin/fulfilment/${2 ** 40}/deliver`,
      as: admin,
      body: { note: 'x' },
    });
    expect([400, 404], res.body).toContain(res.statusCode);
  });
});
