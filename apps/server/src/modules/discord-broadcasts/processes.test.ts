/**
 * Broadcast jobs with several server processes on one database (two apps sharing it, each with its
 * own worker and Discord simulator): every recipient of every job gets one message, whichever
 * process sent it, and a job held by a process that died is taken over once its lease ran out.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { BroadcastResult } from '@kickback/common/http/discord';
import { discordBroadcasts } from '../../db/schema/discord-broadcasts';
import { buildTestApp, type TestApp } from '../../../test/app';
import { manyLinkedUsers, waitForBroadcast } from '../../../test/discord';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';

let a: TestApp | undefined;
let b: TestApp | undefined;
afterEach(async () => {
  await b?.close();
  await a?.close();
  a = b = undefined;
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

function inboxOf(t: TestApp) {
  const bot = t.app.discordSimulator?.bot;
  if (!bot) throw new Error('no simulator');
  return bot.messages();
}

describe('broadcast jobs across processes', () => {
  it('sends every recipient of every job exactly once when two processes work', async () => {
    a = await buildTestApp();
    b = await buildTestApp({ database: a.database as never });
    const admin = await a.signIn({ role: 'Admin' });
    await manyLinkedUsers(a, 30, 'Pal');
    const jobs: string[] = [];
    for (const message of ['one', 'two', 'three']) {
      const res = await a.call({
        method: 'POST',
        url: '/api/Discord/sendmessage',
        as: admin,
        body: { message, isAllDiscordLinkedUsers: true },
      });
      expect(res.statusCode).toBe(202);
      jobs.push(res.json<BroadcastResult>().id);
      void b.app.discordBroadcasts.kick();
    }
    for (const id of jobs) expect((await waitForBroadcast(a, admin, id)).sentCount).toBe(30);
    // Both processes took part, and between them nobody got a message twice.
    expect(inboxOf(a).length).toBeGreaterThan(0);
    expect(inboxOf(b).length).toBeGreaterThan(0);
    const all = [...inboxOf(a), ...inboxOf(b)];
    for (const message of ['one', 'two', 'three']) {
      const got = all.filter((m) => m.content === message).map((m) => m.recipientId);
      expect(got).toHaveLength(30);
      expect(new Set(got).size).toBe(30);
    }
  });

  it('takes over a job whose process died once its lease ran out', async () => {
    a = await buildTestApp();
    await a.app.discordBroadcasts.stop(); // this process will "die" holding the job
    const admin = await a.signIn({ role: 'Admin' });
    await manyLinkedUsers(a, 30, 'Orphan');
    const res = await a.call({
      method: 'POST',
      url: '/api/Discord/sendmessage',
      as: admin,
      body: { message: 'orphaned', isAllDiscordLinkedUsers: true },
    });
    const { id } = res.json<BroadcastResult>();
    const heldUntil = new Date(a.clock.now().getTime() + 2 * 60_000);
    await a.database.db
      .update(discordBroadcasts)
      .set({ status: 'running', leaseUntil: heldUntil })
      .where(eq(discordBroadcasts.id, id));

    b = await buildTestApp({ database: a.database as never });
    b.clock.set(a.clock.now());
    await b.app.discordBroadcasts.kick();
    expect(inboxOf(b)).toEqual([]); // the lease still holds

    b.clock.advance(3 * 60_000);
    await b.app.discordBroadcasts.kick();
    const done = await waitForBroadcast(b, admin, id);
    expect(done).toMatchObject({ status: 'completed', sentCount: 30 });
    expect(inboxOf(b)).toHaveLength(30);
    const [row] = await b.database.db.select().from(discordBroadcasts).where(eq(discordBroadcasts.id, id));
    expect(row?.leaseUntil).toBeNull();
  });
});
