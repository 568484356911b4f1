/**
 * The audit log: every admin action (who, what, target, before/after, when), written in the same
 * transaction as the action so the log never claims what did not happen.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema/audit';

export interface Actor {
  userId: string | null;
  /** The admin's name, or "shell" for `npm run admin`. */
  label: string;
}

export const shellActor: Actor = { userId: null, label: 'shell' };

export function actorOf(user: { id: string; username: string }): Actor {
  return { userId: user.id, label: user.username };
}

export interface AuditEntry {
  action: string;
  targetType?: string;
  targetId?: string;
  before?: unknown;
  after?: unknown;
}

export async function recordAudit(tx: DbOrTx, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorUserId: actor.userId,
    actorLabel: actor.label,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/**
 * Many entries by one actor in one statement (a batch of prizes paid at once): the entries travel as
 * one JSON parameter, however many there are.
 */
export async function recordAuditMany(tx: DbOrTx, actor: Actor, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((entry) => ({
    action: entry.action,
    target_type: entry.targetType ?? null,
    target_id: entry.targetId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  }));
  await tx.execute(sql`
    INSERT INTO audit_log (actor_user_id, actor_label, action, target_type, target_id, before, after)
    SELECT ${actor.userId}::uuid, ${actor.label}, e.action, e.target_type, e.target_id, e.before, e.after
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS e(action text, target_type text, target_id text, before jsonb, after jsonb)
  `);
}
