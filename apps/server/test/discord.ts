/** Discord broadcast test helpers: link users to Discord ids and wait for a broadcast to finish. */
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { isFinished, type BroadcastResult } from '@kickback/common/http/discord';
import { users } from '../src/db/schema/users';
import type { TestApp, TestUser } from './app';

let discordCounter = 0;
/** A fresh 18-digit Discord id. */
export function nextDiscordId(): string {
  discordCounter += 1;
  return String(300_000_000_000_000_000n + BigInt(process.pid) * 1_000_000n + BigInt(discordCounter));
}

/** Signs a user in and links a Discord account to them (as the OAuth link would). */
export async function linkedUser(
  t: TestApp,
  name: string,
  extra: { clashId?: string } = {},
): Promise<TestUser & { discordId: string }> {
  const u = await t.signIn({ name });
  const discordId = nextDiscordId();
  await t.database.db
    .update(users)
    .set({ discordId, discordUsername: name.toLowerCase(), ...(extra.clashId ? { clashId: extra.clashId } : {}) })
    .where(eq(users.id, u.user.id));
  return { ...u, discordId };
}

/** Many Discord-linked users at once (straight SQL: thousands in a moment). */
export async function manyLinkedUsers(t: TestApp, count: number, prefix: string): Promise<void> {
  const base = 400_000_000_000_000_000n + BigInt(process.pid % 1000) * 10_000_000n;
  await t.database.db.execute(sql`
    INSERT INTO users (steam_id, username, discord_id, discord_username)
    SELECT '7656119' || lpad((${Number(process.pid % 1000) * 100_000} + g)::text, 10, '9'),
           ${prefix} || g, (${String(base)}::numeric + g)::text, lower(${prefix}) || g
    FROM generate_series(1, ${count}) AS g
  `);
}

export async function waitForBroadcast(
  t: TestApp,
  admin: TestUser,
  id: string,
  timeoutMs = 90_000,
): Promise<BroadcastResult> {
  // A hang is no progress for `timeoutMs`; a send that keeps going is waited for (a starved CI
  // machine once took more than 90 s to send 60; docs/conventions.md#timeouts).
  let until = Date.now() + timeoutMs;
  let done = -1;
  for (;;) {
    const res = await t.call({ url: `/api/Discord/broadcasts/${id}`, as: admin });
    expect(res.statusCode).toBe(200);
    const body = res.json<BroadcastResult>();
    if (body.status === 'completed' || body.status === 'failed') return body;
    if (body.sentCount + body.failedCount > done) {
      done = body.sentCount + body.failedCount;
      until = Date.now() + timeoutMs;
    }
    if (Date.now() > until) throw new Error(`broadcast ${id} still ${body.status} (${body.sentCount}/${body.total})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Sends a small broadcast and gives its result. The answer carries it (200) when the send finishes
 * within the route's inline wait; on a starved machine it may not, and the answer is the progress
 * (202), which is then waited for (docs/conventions.md#timeouts). That a small send is waited for
 * at all is tested on its own (broadcasts.test.ts).
 */
export async function smallBroadcast(
  t: TestApp,
  admin: TestUser,
  body: Record<string, unknown>,
): Promise<BroadcastResult> {
  const res = await t.call({ method: 'POST', url: '/api/Discord/sendmessage', as: admin, body });
  expect([200, 202]).toContain(res.statusCode);
  const answer = res.json<BroadcastResult>();
  return isFinished(answer.status) ? answer : waitForBroadcast(t, admin, answer.id);
}
