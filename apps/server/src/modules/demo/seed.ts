/**
 * Demo data for `npm start` on an empty database (DEMO_DATA=1, the default outside production):
 * features add their seeders here so a new visitor sees a living site. Each seeder runs only on
 * a database that has none of its data yet.
 */
import type { FastifyInstance } from 'fastify';
import { seedChallenges } from '../challenges/demo';
import { seedDailyRewards } from '../daily-rewards/demo';
import { seedDiscordLinks } from '../discord-broadcasts/demo';
import { seedLeaderboards } from '../leaderboards/demo';
import { seedStore } from '../store/demo';
import { seedDemoModerators } from '../users/demo';

export type DemoSeeder = (app: FastifyInstance) => Promise<void>;

const seeders: DemoSeeder[] = [
  seedDemoModerators,
  seedLeaderboards,
  seedStore,
  seedDiscordLinks,
  seedChallenges,
  seedDailyRewards,
];

export async function seedDemoData(app: FastifyInstance): Promise<void> {
  for (const seed of seeders) await seed(app);
  app.reads.invalidate('');
}
