/** Unlinking a Kick or Discord account (`GET /api/User/unlink?type=kick|discord`). */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { LinkedAccountType } from '@kickback/common/http/accounts';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/users';
import { conflict } from '../../lib/errors';
import { said } from '../../lib/i18n';

const linkColumns = {
  kick: {
    id: users.kickId,
    cleared: { kickId: null, kickUsername: null },
    notLinked: said('common:kickNotLinkedToUnlink'),
  },
  discord: {
    id: users.discordId,
    cleared: { discordId: null, discordUsername: null, discordDmClosedAt: null },
    notLinked: said('common:discordNotLinkedToUnlink'),
  },
} as const;

/** Clears the link; 409 when there was none. */
export async function unlinkAccount(db: Db, userId: string, type: LinkedAccountType): Promise<void> {
  const link = linkColumns[type];
  const [row] = await db
    .update(users)
    .set(link.cleared)
    .where(and(eq(users.id, userId), isNotNull(link.id)))
    .returning({ id: users.id });
  if (!row) throw conflict(link.notLinked);
}
