/**
 * Demo data (`DEMO_DATA`, only while the bot is the local simulator): the demo users get Discord
 * links (the simulator's demo accounts, one of which has DMs closed), so Send Discord Message has
 * an audience on a fresh `npm start`. Runs only while no user has Discord linked.
 */
import { inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/users';
import { simulatedDiscordId } from '../../integrations/discord/simulator/directory';

/** Site user (by SteamID64, created by the leaderboard demo) → simulated Discord username. */
const demoLinks: ReadonlyArray<[string, string]> = [
  ['76561199999999011', 'luckyluke'],
  ['76561199999999012', 'cratequeen'],
  ['76561199999999013', 'highroller'],
  ['76561199999999101', 'marta.spins'],
  ['76561199999999102', 'jonas_bets'],
  ['76561199999999103', 'quietpriya'],
  ['76561199999999104', 'tomasz'],
  ['76561199999999105', 'aiko'],
];

export async function seedDiscordLinks(app: FastifyInstance): Promise<void> {
  if (app.config.discord.bot.mode !== 'simulator') return;
  const db = app.db;
  if ((await db.select({ id: users.id }).from(users).where(isNotNull(users.discordId)).limit(1)).length > 0) return;
  const steamIds = demoLinks.map(([steamId]) => steamId);
  const present = new Set(
    (await db.select({ steamId: users.steamId }).from(users).where(inArray(users.steamId, steamIds))).map(
      (r) => r.steamId,
    ),
  );
  for (const [steamId, name] of demoLinks) {
    if (!present.has(steamId)) continue;
    await db
      .update(users)
      .set({ discordId: simulatedDiscordId(name), discordUsername: name })
      .where(sql`${users.steamId} = ${steamId} AND ${users.discordId} IS NULL`);
  }
}
