/** Test helpers for chat predictions: linked chatters, `!bet` through the signed webhook, sums. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { chatMessages } from '../src/db/schema/chat';
import { ledger } from '../src/db/schema/ledger';
import { rowsOf } from '../src/db/rows';
import { users } from '../src/db/schema/users';
import type { TestApp, TestUser } from './app';
import { givePoints } from './economy';
import { chatPayload, postDelivery, signedDelivery } from './kick';

export interface Chatter extends TestUser {
  kickId: string;
  kickName: string;
}

/** A site user linked to Kick account `kickId`, with `points` granted. */
export async function linkedChatter(
  t: TestApp,
  kickId: string,
  opts: { points?: string; excluded?: boolean; role?: 'User' | 'Admin' } = {},
): Promise<Chatter> {
  const u = await t.signIn({ name: `fan${kickId}`, ...(opts.role ? { role: opts.role } : {}) });
  const kickName = `kick${kickId}`;
  await t.database.db
    .update(users)
    .set({ kickId, kickUsername: kickName, excluded: opts.excluded ?? false })
    .where(eq(users.id, u.user.id));
  await t.app.chat.linkChanged(u.user.id); // as the !verify handler does after its commit
  if (opts.points) await givePoints(t, u.user.id, opts.points);
  return { ...u, kickId, kickName };
}

/** Posts `content` from a Kick user through the real webhook route, signed like Kick; returns its message id. */
export async function say(
  t: TestApp,
  who: { kickId: string; kickName: string },
  content: string,
): Promise<{ res: LightMyRequestResponse; messageId: string; payload: Record<string, unknown> }> {
  const payload = chatPayload(t, who.kickName, content, { userId: who.kickId });
  const res = await postDelivery(t, signedDelivery(payload, { at: t.clock.now() }));
  return { res, messageId: payload.message_id as string, payload };
}

/** What the bot answered to one chat message (logged and kept when there is no bot token). */
export async function repliesTo(t: TestApp, messageId: string): Promise<string[]> {
  const [row] = await t.database.db
    .select({ replies: chatMessages.replies })
    .from(chatMessages)
    .where(eq(chatMessages.messageId, messageId));
  return row?.replies ?? [];
}

/** A user's `prediction_bet` ledger deltas, oldest first: the order their bets were taken in. */
export async function betStakes(t: TestApp, userId: string): Promise<string[]> {
  const rows = await t.database.db
    .select({ delta: ledger.delta })
    .from(ledger)
    .where(and(eq(ledger.userId, userId), eq(ledger.reason, 'prediction_bet')))
    .orderBy(asc(ledger.id));
  return rows.map((r) => r.delta);
}

/** The escrow: stakes held, and the ledger's net flow into predictions (bets − payouts). */
export async function escrow(t: TestApp): Promise<{ stakes: string; ledgerNet: string; bets: number }> {
  const [row] = rowsOf<{ stakes: string; ledger_net: string; bets: string | number }>(
    await t.database.db.execute(sql`
      SELECT
        COALESCE((SELECT sum(stake) FROM prediction_bets WHERE payout IS NULL), 0)::numeric(18,2)::text AS stakes,
        COALESCE((SELECT -sum(delta) FROM ledger WHERE reason LIKE 'prediction_%'), 0)::numeric(18,2)::text AS ledger_net,
        (SELECT count(*) FROM ledger WHERE reason = 'prediction_bet') AS bets
    `),
  );
  return { stakes: row!.stakes, ledgerNet: row!.ledger_net, bets: Number(row!.bets) };
}

export const ANSWERS = [
  { text: 'Yes', color: '#22c55e' },
  { text: 'No', color: '#ef4444' },
  { text: 'Maybe', color: '#3b82f6' },
];

export async function openPrediction(t: TestApp, admin: TestUser, body: Record<string, unknown> = {}) {
  const res = await t.call({
    method: 'POST',
    url: '/api/predictions',
    as: admin,
    body: { question: 'Will the streamer win?', answers: ANSWERS, ...body },
  });
  if (res.statusCode !== 200) throw new Error(`open failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string };
}
