/**
 * Demo staff (`DEMO_DATA`): the dev provider's demo Moderator exists as a Moderator, so picking
 * them on the dev sign-in page shows what a Moderator may use. Admins come from the configuration
 * (ADMIN_STEAM_IDS, and the demo admin with the dev provider). A user already there keeps their role.
 */
import type { FastifyInstance } from 'fastify';
import { demoUsers } from '../../config';
import { users } from '../../db/schema/users';

export async function seedDemoModerators(app: FastifyInstance): Promise<void> {
  const moderators = demoUsers.filter((u) => u.moderator);
  if (moderators.length === 0) return;
  await app.db
    .insert(users)
    .values(
      moderators.map((u) => ({
        steamId: u.steamId,
        username: u.name,
        avatarUrl: `${app.config.publicUrl}/dev/steam/avatar/${u.steamId}.svg`,
        role: 'Moderator' as const,
      })),
    )
    .onConflictDoNothing({ target: users.steamId });
}
