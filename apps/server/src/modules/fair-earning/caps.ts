/**
 * Daily earning caps (docs/features/fair-earning.md#daily-caps): what a user earned per kind and
 * UTC day is one row of `earning_daily_totals`, and a grant is ONE conditional UPDATE of that row:
 * the amount granted is computed in the statement from the row as it stands once locked, so two
 * concurrent credits (two redemptions, two processes flushing chat minutes) wait for each other
 * and the second sees what the first took. A computation from an earlier read would let both pass.
 */
import { sql } from 'drizzle-orm';
import { centsToText, toCents } from '@kickback/common/money';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';

export type CapKind = 'channel_points' | 'chat_points';

/** The UTC day of an instant, as `YYYY-MM-DD`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

export interface Want {
  userId: string;
  day: string;
  cents: bigint;
}

/**
 * Grants each want within the cap (`cap` in cents, > 0): `whole` grants all of it or nothing (a
 * conversion is refused whole, so Kick refunds it), `partial` grants up to what the day has left.
 * Resolves to the cents granted per `userId|day`.
 */
export async function grantWithinDailyCap(
  tx: DbOrTx,
  kind: CapKind,
  cap: bigint,
  wants: readonly Want[],
  mode: 'whole' | 'partial',
): Promise<Map<string, bigint>> {
  const merged = new Map<string, Want>();
  for (const w of wants) {
    const key = `${w.userId}|${w.day}`;
    const seen = merged.get(key);
    merged.set(key, { ...w, cents: (seen?.cents ?? 0n) + w.cents });
  }
  const granted = new Map<string, bigint>();
  const list = [...merged.values()].filter((w) => w.cents > 0n).sort((a, b) => (a.userId < b.userId ? -1 : 1));
  if (list.length === 0) return granted;
  const values = sql.join(
    list.map((w) => sql`(${w.userId}::uuid, ${w.day}::date, ${centsToText(w.cents)}::numeric)`),
    sql`, `,
  );
  const capText = centsToText(cap);
  await tx.execute(sql`
    INSERT INTO earning_daily_totals (user_id, kind, day)
    SELECT v.user_id, ${kind}, v.day FROM (VALUES ${values}) AS v (user_id, day, want)
    ON CONFLICT DO NOTHING
  `);
  // Rows locked in one order, so two batches over the same users cannot deadlock.
  await tx.execute(sql`
    SELECT 1 FROM earning_daily_totals t JOIN (VALUES ${values}) AS v (user_id, day, want)
      ON t.user_id = v.user_id AND t.kind = ${kind} AND t.day = v.day
    ORDER BY t.user_id, t.day FOR UPDATE OF t
  `);
  const grant =
    mode === 'whole'
      ? sql`CASE WHEN t.amount + v.want <= ${capText}::numeric THEN v.want ELSE 0 END`
      : sql`LEAST(v.want, GREATEST(${capText}::numeric - t.amount, 0))`;
  const rows = rowsOf<{ user_id: string; day: string | Date; last_granted: string }>(
    await tx.execute(sql`
      UPDATE earning_daily_totals t
      SET last_granted = ${grant}, amount = t.amount + ${grant}
      FROM (VALUES ${values}) AS v (user_id, day, want)
      WHERE t.user_id = v.user_id AND t.kind = ${kind} AND t.day = v.day
      RETURNING t.user_id, t.day::text AS day, t.last_granted
    `),
  );
  for (const r of rows) granted.set(`${r.user_id}|${String(r.day).slice(0, 10)}`, toCents(r.last_granted));
  return granted;
}
