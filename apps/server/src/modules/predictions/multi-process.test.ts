/**
 * Predictions on two real server processes sharing one PostgreSQL database and one Redis: bets
 * from the same chatters arrive at both at once and never overspend (the ledger's conditional
 * debit under real concurrency); the auto-lock fires once, on time, whichever process gets it; an
 * overlay on the other process sees every change; resolving twice at once, once on each, pays once.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) and Redis
 * (TEST_REDIS_URL, else redis://127.0.0.1:6379). Outside CI the test is skipped, with the reason
 * printed, when either is missing; in CI a missing service fails it.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { predictionHub, type PredictionState } from '@kickback/common/hubs/prediction';
import { rowsOf } from '../../db/rows';
import { users } from '../../db/schema/users';
import { HubClient } from '../../../test/hub-client';
import { kickChat, missing, redisUrl, serversOnFreshDatabase } from '../../../test/multi-process';

describe.skipIf(missing !== null)('two server processes on one PostgreSQL and one Redis', () => {
  const kickKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const mp = serversOnFreshDatabase({
    tag: 'mpp',
    // Both processes trust the test's key, as if Kick had signed with it.
    env: { KICK_WEBHOOK_PUBLIC_KEY: kickKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  });
  const { person, prefix } = mp;
  const clients: HubClient[] = [];
  afterAll(() => clients.forEach((c) => c.close()));

  async function chatter(kickId: string, points: string) {
    const p = await person(`fan${kickId}`);
    await mp.database.db
      .update(users)
      .set({ kickId, kickUsername: `kick${kickId}`, points })
      .where(eq(users.id, p.user.id));
    await mp.database.db.execute(
      sql`INSERT INTO ledger (user_id, currency, delta, balance_after, reason) VALUES (${p.user.id}, 'points', ${points}::numeric, ${points}::numeric, 'admin_grant')`,
    );
    // As a link made on the site does: every process refreshes its in-memory linked users.
    const redis = new Redis(redisUrl);
    await redis.publish(`${prefix}chat-linked-users`, p.user.id);
    redis.disconnect();
    return { ...p, kickId };
  }

  /** `!bet` as Kick delivers it: a signed webhook delivery to one process (sent at `now`, with its own id if given). */
  async function bet(url: string, kickId: string, text: string, now = new Date(), id?: string): Promise<number> {
    const sender = { userId: kickId, username: `kick${kickId}` };
    return (await kickChat(url, kickKeys.privateKey, sender, text, { now, ...(id ? { messageId: id } : {}) })).status;
  }

  const call = (url: string, path: string, cookie: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'kickback', cookie },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  it('bets on both processes never overspend; the auto-lock fires once on time; a double resolve pays once', async () => {
    const [a, b] = mp.urls as [string, string];
    const host = await person('Host', 'Admin');
    const fans = [];
    for (let i = 0; i < 10; i++) fans.push(await chatter(String(9100 + i), '100.00'));

    const overlay = new HubClient(b, predictionHub, { query: {} });
    clients.push(overlay);
    await overlay.connected();

    const lockAt = Date.now() + 12_000;
    const opened = await call(a, '/api/predictions', host.cookie, {
      question: 'Across processes?',
      answers: [
        { text: 'A', color: '#ff0000' },
        { text: 'B', color: '#00ff00' },
      ],
      autoLockAt: new Date(lockAt).toISOString(),
    });
    expect(opened.status).toBe(200);
    const { id } = (await opened.json()) as { id: string };
    await overlay.waitFor<PredictionState>('ReceiveState', (s) => s.id === id && s.state === 1, 10_000);

    // Each fan: 5 bets of 30 at once, alternating processes; only 3 fit in 100 points.
    const statuses = await Promise.all(
      fans.flatMap((f, i) =>
        Array.from({ length: 5 }, (_, k) => bet(k % 2 ? a : b, f.kickId, `!bet ${1 + (i % 2)} 30`)),
      ),
    );
    expect([...new Set(statuses)]).toEqual([200]);
    // No bet's transaction failed (a deadlock between two processes taking one user's bets, say).
    const failures = mp
      .output()
      .split('\n')
      .filter((line) => line.includes('chat handler failed'));
    expect(failures).toEqual([]);
    const balances = rowsOf<{ points: string }>(
      await mp.database.db.execute(sql`SELECT points::text AS points FROM users WHERE kick_id IS NOT NULL`),
    );
    expect(balances.map((r) => r.points)).toEqual(Array(10).fill('10.00'));
    // Every refusal is the ledger's clean "not enough points", never a failing handler.
    const [answered] = rowsOf<{ taken: string | number; short: string | number }>(
      await mp.database.db.execute(sql`
        SELECT count(*) FILTER (WHERE replies[1] LIKE '%bet taken%') AS taken,
               count(*) FILTER (WHERE replies[1] LIKE '%not enough points%') AS short
        FROM chat_messages
      `),
    );
    expect([Number(answered!.taken), Number(answered!.short)]).toEqual([30, 20]);
    const counted = await overlay.waitFor<PredictionState>(
      'ReceiveState',
      (s) => s.id === id && s.answers.every((x) => x.participantCount === 5 && x.points === 450),
      10_000,
    );
    expect(counted.state).toBe(1);
    expect(Date.now()).toBeLessThan(lockAt);

    const locked = await overlay.waitFor<PredictionState>('ReceiveState', (s) => s.id === id && s.state === 3, 20_000);
    const lockedAt = overlay.received.find((r) => (r.payload as PredictionState).state === 3)!.at;
    expect(lockedAt).toBeGreaterThanOrEqual(lockAt);
    expect(lockedAt - lockAt).toBeLessThan(1500);
    expect(overlay.events<PredictionState>('ReceiveState').filter((s) => s.state === 3)).toHaveLength(1);
    expect(locked.answers.map((x) => x.participantCount)).toEqual([5, 5]);

    const [r1, r2] = await Promise.all([
      call(a, `/api/predictions/${id}/resolve`, host.cookie, { answerId: 1 }),
      call(b, `/api/predictions/${id}/resolve`, host.cookie, { answerId: 1 }),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 409]);
    const result = await overlay.waitFor<PredictionState>('ReceiveState', (s) => s.id === id && s.state === 2, 10_000);
    expect(result.winnersResult).toEqual(
      fans
        .filter((_, i) => i % 2 === 0)
        .map((f) => ({ username: f.user.username, points: 90 }))
        .sort((x, y) => x.username.localeCompare(y.username)),
    );
    const [totals] = rowsOf<{ mismatches: string | number; wins: string | number }>(
      await mp.database.db.execute(sql`
        SELECT
          (SELECT count(*) FROM users u WHERE u.points <> COALESCE((SELECT sum(delta) FROM ledger l WHERE l.user_id = u.id AND l.currency = 'points'), 0)) AS mismatches,
          (SELECT count(*) FROM ledger WHERE reason = 'prediction_win') AS wins
      `),
    );
    expect(Number(totals!.mismatches)).toBe(0);
    expect(Number(totals!.wins)).toBe(5);
  });

  it("one chatter's two bets on two processes are taken in the order Kick sent them", async () => {
    const [a, b] = mp.urls as [string, string];
    const host = await person('Order Host', 'Admin');
    const fan = await chatter('9300', '500.00');
    await new Promise((r) => setTimeout(r, 500)); // the processes read the new link (published above)
    const opened = await call(a, '/api/predictions', host.cookie, {
      question: 'In order?',
      answers: [
        { text: 'A', color: '#ff0000' },
        { text: 'B', color: '#00ff00' },
      ],
    });
    expect(opened.status, await opened.clone().text()).toBe(200);
    const { id } = (await opened.json()) as { id: string };
    // Kick's message ids are UUIDs: the later message gets the smaller id, so only created_at orders them.
    const firstId = `ffffffff-0000-4000-8000-${randomBytes(6).toString('hex')}`;
    const secondId = `00000000-0000-4000-8000-${randomBytes(6).toString('hex')}`;
    const sentFirst = new Date(Date.now() - 2000);
    const sentSecond = new Date(sentFirst.getTime() + 1000);

    const pool = mp.database.raw as pg.Pool;
    const count = async (text: string, values: unknown[] = []) =>
      Number((await pool.query<{ n: string }>(text, values)).rows[0]!.n);
    const waiting = () =>
      count(
        `SELECT count(*) AS n FROM pg_locks l JOIN pg_stat_activity s USING (pid)
         WHERE NOT l.granted AND s.datname = current_database()`,
      );
    const until = async (what: () => Promise<boolean>) => {
      const deadline = Date.now() + 20_000;
      while (!(await what())) {
        if (Date.now() > deadline) throw new Error(`timed out:\n${mp.output()}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    // The second message reaches process B first, and its bet waits on the chatter's balance row
    // (held here); the first reaches process A and is recorded while the second has not committed.
    const holder = await pool.connect();
    let second: Promise<number>;
    let first: Promise<number>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [fan.user.id]);
      second = bet(b, fan.kickId, '!bet 2 50', sentSecond, secondId);
      await until(async () => (await waiting()) >= 1);
      first = bet(a, fan.kickId, '!bet 1 100', sentFirst, firstId);
      await until(
        async () => (await count('SELECT count(*) AS n FROM chat_messages WHERE message_id = $1', [firstId])) === 1,
      );
      await until(async () => (await waiting()) >= 2);
    } finally {
      await holder.query('COMMIT');
      holder.release();
    }
    expect([await first, await second]).toEqual([200, 200]);

    const bets = rowsOf<{ answer_id: number; stake: string }>(
      await mp.database.db.execute(
        sql`SELECT answer_id, stake::text AS stake FROM prediction_bets WHERE prediction_id = ${id} AND user_id = ${fan.user.id}`,
      ),
    );
    expect(bets).toEqual([{ answer_id: 1, stake: '100.00' }]);
    const replies = rowsOf<{ message_id: string; replies: string[] }>(
      await mp.database.db.execute(
        sql`SELECT message_id, replies FROM chat_messages WHERE message_id IN (${firstId}, ${secondId}) ORDER BY sent_at`,
      ),
    );
    expect(replies).toEqual([
      { message_id: firstId, replies: ['@kick9300 bet taken: 100 points on option 1. Balance: 400.'] },
      { message_id: secondId, replies: ['@kick9300 you already bet on option 1: one answer per prediction.'] },
    ]);
    const [me] = rowsOf<{ points: string }>(
      await mp.database.db.execute(sql`SELECT points::text AS points FROM users WHERE id = ${fan.user.id}`),
    );
    expect(me!.points).toBe('400.00');
  });
});
