/**
 * Site notifications (docs/features/store-limits.md#site-notifications): the one way any module
 * posts a short line to a user, inside the caller's transaction so it exists only if what it
 * announces committed. The user reads them from the user menu (routes.ts).
 */
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import { MAX_NOTIFICATIONS_LISTED, type Notification } from '@kickback/common/http/notifications';
import type { DbOrTx } from '../../db/client';
import { notifications } from '../../db/schema/notifications';

/** Posts one notification; `kind` names what posted it (e.g. `store.restock`), `link` a site path. */
export async function notify(
  tx: DbOrTx,
  userId: string,
  kind: string,
  text: string,
  link: string | null = null,
): Promise<void> {
  await notifyMany(tx, [userId], kind, text, link);
}

/** The same notification to several users in one insert. */
export async function notifyMany(
  tx: DbOrTx,
  userIds: readonly string[],
  kind: string,
  text: string,
  link: string | null = null,
): Promise<void> {
  if (userIds.length === 0) return;
  await tx.insert(notifications).values(userIds.map((userId) => ({ userId, kind, text, link })));
}

/** The user's newest notifications and how many are unread. */
export async function listNotifications(
  db: DbOrTx,
  userId: string,
): Promise<{ items: Notification[]; unread: number }> {
  const [rows, unread] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.id))
      .limit(MAX_NOTIFICATIONS_LISTED),
    db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt))),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      text: r.text,
      link: r.link,
      createdAt: r.createdAt.toISOString(),
      read: r.readAt !== null,
    })),
    unread: unread[0]?.n ?? 0,
  };
}

/** Marks the user's own notifications read (the given ones, or all); another user's ids are ignored. */
export async function markRead(db: DbOrTx, userId: string, ids: readonly number[] | undefined): Promise<number> {
  const own = and(eq(notifications.userId, userId), isNull(notifications.readAt));
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(ids === undefined ? own : and(own, inArray(notifications.id, [...ids])))
    .returning({ id: notifications.id });
  return rows.length;
}
