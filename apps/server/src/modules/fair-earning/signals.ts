/**
 * Sign-in signals for the possible-alts view (docs/features/fair-earning.md#possible-alts,
 * docs/security.md#fair-earning-signals). Only a keyed hash (HMAC-SHA256 with the session secret)
 * of a sign-in address, a device cookie or a partner account id is kept, per user, with when it was
 * first and last seen; rows not seen for the retention period are deleted by the sweep. Site
 * accounts sharing a hash are listed for the admin, who can exclude one from there (the users'
 * audited exclusion).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { signalKinds, type AltGroup, type SignalKind } from '@kickback/common/http/fair-earning';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';

/** The long-lived, httpOnly cookie naming a browser (a random value; only its hash is stored). */
export const DEVICE_COOKIE = 'kb_device';
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

export function signalHash(secret: string, kind: SignalKind, value: string): string {
  return createHmac('sha256', secret).update(`${kind}:${value}`).digest('base64url');
}

export interface Signal {
  kind: SignalKind;
  value: string;
}

export async function recordSignals(
  db: DbOrTx,
  secret: string,
  userId: string,
  signals: readonly Signal[],
  now: Date,
): Promise<void> {
  const values = signals
    .filter((s) => s.value !== '')
    .map(
      (s) =>
        sql`(${userId}::uuid, ${s.kind}, ${signalHash(secret, s.kind, s.value)}, ${now.toISOString()}::timestamptz)`,
    );
  if (values.length === 0) return;
  await db.execute(sql`
    INSERT INTO account_signals (user_id, kind, hash, first_seen_at, last_seen_at)
    SELECT v.user_id, v.kind, v.hash, v.at, v.at FROM (VALUES ${sql.join(values, sql`, `)}) AS v (user_id, kind, hash, at)
    ON CONFLICT (user_id, kind, hash) DO UPDATE SET last_seen_at = GREATEST(account_signals.last_seen_at, excluded.last_seen_at)
  `);
}

/** The browser's device id, given a cookie when it has none yet. */
export function deviceOf(
  request: FastifyRequest,
  reply: FastifyReply,
  cookies: { secure: boolean; prefix: string },
): string {
  const name = `${cookies.prefix}${DEVICE_COOKIE}`;
  const current = request.cookies[name];
  if (current && /^[A-Za-z0-9_-]{16,64}$/.test(current)) return current;
  const id = randomBytes(18).toString('base64url');
  reply.setCookie(name, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: cookies.secure,
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
  return id;
}

/** Deletes signals not seen within the retention period, and daily totals older than two days. */
export async function sweepSignals(db: DbOrTx, retentionDays: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000);
  const deleted = rowsOf<{ user_id: string }>(
    await db.execute(
      sql`DELETE FROM account_signals WHERE last_seen_at < ${cutoff.toISOString()}::timestamptz RETURNING user_id`,
    ),
  );
  const oldDay = new Date(now.getTime() - 2 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  await db.execute(sql`DELETE FROM earning_daily_totals WHERE day < ${oldDay}::date`);
  return deleted.length;
}

const MAX_GROUPS = 200;

/** Groups of two or more site accounts sharing a signal, most recently seen first. */
export async function listAltGroups(db: DbOrTx): Promise<AltGroup[]> {
  const rows = rowsOf<{
    kind: string;
    hash: string;
    id: string;
    username: string;
    kick_username: string | null;
    excluded: boolean;
    first_seen_at: string | Date;
    last_seen_at: string | Date;
  }>(
    await db.execute(sql`
      WITH shared AS (
        SELECT s.kind, s.hash, max(s.last_seen_at) AS seen
        FROM account_signals s JOIN users u ON u.id = s.user_id AND u.removed_at IS NULL
        GROUP BY s.kind, s.hash HAVING count(*) > 1
        ORDER BY seen DESC LIMIT ${MAX_GROUPS}
      )
      SELECT s.kind, s.hash, u.id, u.username, u.kick_username, u.excluded, s.first_seen_at, s.last_seen_at
      FROM shared JOIN account_signals s ON s.kind = shared.kind AND s.hash = shared.hash
      JOIN users u ON u.id = s.user_id AND u.removed_at IS NULL
      ORDER BY shared.seen DESC, shared.kind, shared.hash, s.last_seen_at DESC
    `),
  );
  const groups = new Map<string, AltGroup>();
  for (const r of rows) {
    const kind = signalKinds.find((k) => k === r.kind);
    if (!kind) continue;
    const key = `${kind}-${r.hash.slice(0, 10)}`;
    const group = groups.get(key) ?? { key, kind, users: [] };
    group.users.push({
      id: r.id,
      username: r.username,
      kickUsername: r.kick_username,
      excluded: r.excluded,
      firstSeenAt: new Date(r.first_seen_at).toISOString(),
      lastSeenAt: new Date(r.last_seen_at).toISOString(),
    });
    groups.set(key, group);
  }
  return [...groups.values()];
}
