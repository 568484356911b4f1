/**
 * The audit log: every admin action (who, what, target, before/after, when), written in the same
 * transaction as the action so the log never claims what did not happen.
 */
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

/** Many entries by one actor in one statement (a batch of prizes paid at once). */
export async function recordAuditMany(tx: DbOrTx, actor: Actor, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.insert(auditLog).values(
    entries.map((entry) => ({
      actorUserId: actor.userId,
      actorLabel: actor.label,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
    })),
  );
}
