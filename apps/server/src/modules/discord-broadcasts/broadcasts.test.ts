/**
 * Discord broadcasts through the real app, its background worker, @discordjs/rest and the local
 * Discord simulator (answered in-process through the app's loopback HTTP).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { BroadcastResult } from '@kickback/common/http/discord';
import { auditLog } from '../../db/schema/audit';
import { discordBroadcasts } from '../../db/schema/discord-broadcasts';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { linkedUser, manyLinkedUsers, smallBroadcast, waitForBroadcast } from '../../../test/discord';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { seedDemoData } from '../demo/seed';
import { INLINE_MAX, INLINE_WAIT_MS } from './routes';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

const sim = () => {
  const s = t.app.discordSimulator;
  if (!s) throw new Error('the Discord simulator is not mounted');
  return s.bot;
};

function send(admin: TestUser | null, body: Record<string, unknown>) {
  return t.call({ method: 'POST', url: '/api/Discord/sendmessage', as: admin, body });
}

const sent = (admin: TestUser, body: Record<string, unknown>) => smallBroadcast(t, admin, body);

const names = (list: BroadcastResult['users']) => list.map((r) => r.username).sort();

describe('POST /api/Discord/sendmessage', () => {
  it('sends to three users, one with DMs closed: two succeed, one fails and is skipped next time', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin', name: 'Boss' });
    const ann = await linkedUser(t, 'Ann');
    const bob = await linkedUser(t, 'Bob');
    const cat = await linkedUser(t, 'Cat');
    sim().setDmsClosed(cat.discordId, true);

    const userIds = [ann.user.id, bob.user.id, cat.user.id];
    const waits = vi.spyOn(t.app.discordBroadcasts, 'waitFor');
    const first = await sent(admin, { message: 'Stream starts in 10 minutes!', userIds });
    // A send this small is waited for, so the answer can carry its result.
    expect(waits).toHaveBeenCalledWith(first.id, INLINE_WAIT_MS);
    expect(first.status).toBe('completed');
    expect(names(first.users)).toEqual(['Ann', 'Bob']);
    expect(first.failed).toMatchObject([{ username: 'Cat', status: 'failed', reason: 'dms_closed' }]);
    expect(first).toMatchObject({ total: 3, sentCount: 2, failedCount: 1 });

    const inbox = sim().messages();
    expect(inbox.map((m) => m.recipientId).sort()).toEqual([ann.discordId, bob.discordId].sort());
    expect(inbox.every((m) => m.content === 'Stream starts in 10 minutes!')).toBe(true);
    expect(sim().refusals.get(cat.discordId)).toBe(1);
    expect((await t.reload(cat.user.id)).discordDmClosedAt).not.toBeNull();
    expect((await t.reload(ann.user.id)).discordDmClosedAt).toBeNull();

    const again = await sent(admin, { message: 'Giveaway tonight', userIds });
    expect(names(again.users)).toEqual(['Ann', 'Bob']);
    expect(again.failed).toMatchObject([{ username: 'Cat', status: 'skipped', reason: 'dms_closed' }]);
    // Skipped without asking Discord: still the one refusal.
    expect(sim().refusals.get(cat.discordId)).toBe(1);
    expect(sim().messages()).toHaveLength(4);
  });

  it('refuses an empty or over-long message before anything is sent', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const ann = await linkedUser(t, 'Ann');
    const userIds = [ann.user.id];
    for (const [message, why] of [
      ['', /^Enter a message\.$/],
      ['   \n ', /^Enter a message\.$/],
      ['x'.repeat(2001), /2,000 characters/],
      [42, /message/i],
    ] as const) {
      const res = await send(admin, { message, userIds });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(why);
      expect(res.json().fields.map((f: { path: string }) => f.path)).toEqual(['message']);
    }
    expect(await t.database.db.select().from(discordBroadcasts)).toEqual([]);
    expect(sim().messages()).toEqual([]);

    expect((await sent(admin, { message: 'y'.repeat(2000), userIds })).sentCount).toBe(1);
    expect(sim().messages()).toHaveLength(1);
  });

  it('sends each Discord account one message however often it is chosen', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const ann = await linkedUser(t, 'Ann');
    const bob = await linkedUser(t, 'Bob');
    const body = await sent(admin, {
      message: 'hello',
      userIds: [ann.user.id, ann.user.id, bob.user.id, ann.user.id],
      isAllDiscordLinkedUsers: true,
      isIncludeClashActiveUsers: true,
      isIncludeClashNonActiveUsers: true,
    });
    expect(body.total).toBe(2);
    expect(names(body.users)).toEqual(['Ann', 'Bob']);
    expect(
      sim()
        .messages()
        .map((m) => m.recipientId)
        .sort(),
    ).toEqual([ann.discordId, bob.discordId].sort());
  });

  it('is for admins only, and checks the audience', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const viewer = await t.signIn({ role: 'User' });
    const ann = await linkedUser(t, 'Ann');
    const body = { message: 'hi', userIds: [ann.user.id] };
    expect((await send(null, body)).statusCode).toBe(401);
    expect((await send(viewer, body)).statusCode).toBe(403);
    expect((await t.call({ url: '/api/Discord/broadcasts', as: viewer })).statusCode).toBe(403);
    expect((await t.call({ url: '/api/Discord/bot', as: null })).statusCode).toBe(401);

    const fieldsOf = (res: { json(): { fields?: Array<{ path: string }> } }) =>
      res.json().fields?.map((f) => f.path.split('.')[0]);
    const none = await send(admin, { message: 'hi' });
    expect(none.statusCode).toBe(400);
    expect(fieldsOf(none)).toEqual(['userIds']);
    const unknown = await send(admin, { message: 'hi', userIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknown.statusCode).toBe(404);
    const badId = await send(admin, { message: 'hi', userIds: ['nope'] });
    expect(badId.statusCode).toBe(400);
    expect(fieldsOf(badId)).toEqual(['userIds']);
    const badFlag = await send(admin, { message: 'hi', userIds: [ann.user.id], isAllDiscordLinkedUsers: 'yes' });
    expect(badFlag.statusCode).toBe(400);
    expect(badFlag.json().message).toMatch(/isAllDiscordLinkedUsers/);
    expect(sim().messages()).toEqual([]);
    expect(await t.database.db.select().from(discordBroadcasts)).toEqual([]);
  });

  it('fails a hand-picked user without a Discord link at once, and audits the send', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin', name: 'Boss' });
    const ann = await linkedUser(t, 'Ann');
    const plain = await t.signIn({ name: 'NoDiscord' });
    const body = await sent(admin, { message: 'hi', userIds: [ann.user.id, plain.user.id] });
    expect(names(body.users)).toEqual(['Ann']);
    expect(body.failed).toMatchObject([{ username: 'NoDiscord', reason: 'not_linked', discordId: null }]);
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'discord.broadcast'));
    expect(entry).toMatchObject({ actorLabel: 'Boss', targetType: 'discord_broadcast', targetId: body.id });
    expect(entry?.after).toMatchObject({ message: 'hi', recipients: 2, pickedUsers: 2 });
  });

  it('keeps sending through 429s, waiting as Discord says', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const people = [await linkedUser(t, 'Ann'), await linkedUser(t, 'Bob'), await linkedUser(t, 'Cat')];
    sim().rateLimitEvery = 2;
    const body = await sent(admin, { message: 'slow down', userIds: people.map((p) => p.user.id) });
    expect(body.sentCount).toBe(3);
    expect(sim().rateLimited).toBeGreaterThan(0);
    expect(sim().messages()).toHaveLength(3);
  });

  it('stops a broadcast whose bot token Discord refuses, failing what is left', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const people = [await linkedUser(t, 'Ann'), await linkedUser(t, 'Bob')];
    const simulator = t.app.discordSimulator;
    if (simulator) simulator.botToken = 'another-token';
    const body = await sent(admin, { message: 'hi', userIds: people.map((p) => p.user.id) });
    expect(body.status).toBe('failed');
    expect(body.error).toMatch(/DISCORD_BOT_TOKEN/);
    expect(body.failed.map((r) => r.reason).sort()).toEqual(['not_sent', 'unauthorized']);
    expect(sim().messages()).toEqual([]);
  });
});

describe('broadcasts as background jobs', () => {
  it('answers a larger send at once with a job, reports progress, and completes it', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    const count = INLINE_MAX + 15;
    await manyLinkedUsers(t, count, 'Fan');
    const res = await send(admin, { message: 'big news', isAllDiscordLinkedUsers: true });
    expect(res.statusCode).toBe(202);
    const started = res.json<BroadcastResult>();
    expect(started.total).toBe(count);
    expect(['pending', 'running']).toContain(started.status);
    expect(started.users).toEqual([]);

    const seen = new Set<number>();
    for (;;) {
      const p = (await t.call({ url: `/api/Discord/broadcasts/${started.id}`, as: admin })).json<BroadcastResult>();
      seen.add(p.sentCount);
      if (p.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const done = await waitForBroadcast(t, admin, started.id);
    expect(done).toMatchObject({ status: 'completed', sentCount: count, failedCount: 0 });
    expect(done.users).toHaveLength(count);
    expect(seen.size).toBeGreaterThan(1); // progress moved while we watched
    expect(
      new Set(
        sim()
          .messages()
          .map((m) => m.recipientId),
      ).size,
    ).toBe(count);

    const list = (await t.call({ url: '/api/Discord/broadcasts', as: admin })).json();
    expect(list[0]).toMatchObject({ id: started.id, status: 'completed', total: count });
  });

  it('does not hold the request for a send to 2,000 users', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    await manyLinkedUsers(t, 2000, 'Crowd');
    const waits = vi.spyOn(t.app.discordBroadcasts, 'waitFor');
    const res = await send(admin, { message: 'everyone!', isAllDiscordLinkedUsers: true });
    // Answered at once while the sends go on, not after them, nor after waiting for them a while
    // (no stopwatch: a loaded machine is slow, not wrong).
    const deliveredByThen = sim().messages().length;
    expect(waits).not.toHaveBeenCalled();
    expect(res.statusCode).toBe(202);
    const answer = res.json<BroadcastResult>();
    expect(answer).toMatchObject({ total: 2000, status: expect.stringMatching(/^(pending|running)$/) });
    expect(answer.sentCount).toBeLessThan(2000);
    expect(deliveredByThen).toBeLessThan(2000);
  });

  it('resumes an unfinished broadcast when the server starts again', async () => {
    const first = await buildTestApp();
    const database = first.database as typeof first.database & { drop(): Promise<void> };
    t = first;
    const admin = await t.signIn({ role: 'Admin' });
    const count = INLINE_MAX + 35;
    await manyLinkedUsers(t, count, 'Loyal');
    const { id } = (await send(admin, { message: 'resume me', isAllDiscordLinkedUsers: true })).json<BroadcastResult>();
    await new Promise((r) => setTimeout(r, 30));
    const firstSim = sim();
    await first.app.close(); // a shutdown mid-send hands the job back
    const sentBefore = firstSim.messages().length;
    expect(sentBefore).toBeLessThan(count);

    const [row] = await database.db.select().from(discordBroadcasts).where(eq(discordBroadcasts.id, id));
    expect(row?.status).not.toBe('completed');
    expect(row?.leaseUntil).toBeNull();

    t = await buildTestApp({ database: first.database as never });
    try {
      const done = await waitForBroadcast(t, admin, id);
      expect(done.sentCount).toBe(count);
      // Nobody got it twice: what the first process sent plus what the second sent is everyone once.
      const all = [...firstSim.messages(), ...sim().messages()].map((m) => m.recipientId);
      expect(new Set(all).size).toBe(count);
      expect(sentBefore + sim().messages().length).toBe(count);
    } finally {
      await t.close();
      t = undefined as unknown as TestApp;
      await (first.database as unknown as { drop(): Promise<void> }).drop();
    }
  });
});

describe('the DMs-closed mark', () => {
  it('is cleared when the user unlinks Discord (a new link is tried again)', async () => {
    t = await buildTestApp();
    const cat = await linkedUser(t, 'Cat');
    await t.database.db.update(users).set({ discordDmClosedAt: new Date() }).where(eq(users.id, cat.user.id));
    expect((await t.call({ url: '/api/User/unlink?type=discord', as: cat })).statusCode).toBe(200);
    expect((await t.reload(cat.user.id)).discordDmClosedAt).toBeNull();
  });
});

describe('Clash audiences', () => {
  it('splits Discord-linked users with a Clash id into active (wagering on the code) and not active', async () => {
    t = await buildTestApp();
    const admin = await t.signIn({ role: 'Admin' });
    await linkedUser(t, 'Active', { clashId: 'ALPHA1' });
    await linkedUser(t, 'Dormant', { clashId: 'bravo2' });
    await linkedUser(t, 'NoClash');
    const now = t.clock.now();
    await t.database.db.execute(sql`
      WITH p AS (
        INSERT INTO leaderboard_periods (site, start_at, end_at)
        VALUES (1, ${new Date(now.getTime() - 3 * 86_400_000).toISOString()}::timestamptz,
                   ${new Date(now.getTime() + 4 * 86_400_000).toISOString()}::timestamptz)
        RETURNING id
      )
      INSERT INTO leaderboard_standings (period_id, player_key, username, external_id, wagered, unit, on_code, seen_at)
      SELECT id, 'id:alpha1', 'alpha', 'alpha1', 120.50, 'USD', true, now() FROM p
      UNION ALL SELECT id, 'id:bravo2', 'bravo', 'bravo2', 80, 'USD', false, now() FROM p
    `);
    const who = async (flags: Record<string, boolean>) =>
      names((await sent(admin, { message: 'clash', ...flags })).users);
    expect(await who({ isIncludeClashActiveUsers: true })).toEqual(['Active']);
    expect(await who({ isIncludeClashNonActiveUsers: true })).toEqual(['Dormant']);
    expect(await who({ isIncludeClashActiveUsers: true, isIncludeClashNonActiveUsers: true })).toEqual([
      'Active',
      'Dormant',
    ]);
    expect(await who({ isAllDiscordLinkedUsers: true })).toEqual(['Active', 'Dormant', 'NoClash']);
  });
});

describe('demo data', () => {
  it('links the demo users to simulated Discord accounts, one with DMs closed', async () => {
    t = await buildTestApp();
    await seedDemoData(t.app);
    await seedDemoData(t.app); // a second start changes nothing
    const admin = await t.signIn({ role: 'Admin' });
    const body = await sent(admin, { message: 'demo', isAllDiscordLinkedUsers: true });
    expect(body.users.map((u) => u.discordUsername)).toContain('luckyluke');
    expect(body.failed).toMatchObject([{ username: 'Priya', discordUsername: 'quietpriya', reason: 'dms_closed' }]);
    expect(body.total).toBe(8);
  });
});
