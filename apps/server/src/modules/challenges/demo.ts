/**
 * Demo challenges (`DEMO_DATA`): a few running ones and a few finished with winners (their prizes
 * queued like an admin's completion would), plus one cancelled and one of another category that
 * the public page must not show. Runs only when there are no challenges yet.
 */
import type { FastifyInstance } from 'fastify';
import { count, eq } from 'drizzle-orm';
import { centsToText, toCents } from '@kickback/common/money';
import { demoUsers } from '../../config';
import { challenges } from '../../db/schema/challenges';
import { users } from '../../db/schema/users';
import { enqueueFulfilment } from '../fulfilment/service';
import { challengeReference } from './service';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface DemoChallenge {
  title: string;
  price: number;
  description: string;
  image: string;
  ageDays: number;
  /** Completed: index into the demo users (winner) and how long it ran. */
  won?: { by: number; afterDays: number };
  status?: 0 | 2;
  category?: string;
}

export const demoChallenges: DemoChallenge[] = [
  {
    title: 'Gates of Olympus 1,000x',
    price: 500,
    description: 'Land a {1,000x} or higher win on {Gates of Olympus} with a bet of at least {$0.40}.',
    image: '/challenges/olympus.svg',
    ageDays: 1,
  },
  {
    title: 'Sweet Bonanza Max Tumble',
    price: 250,
    description: 'Hit {500x} on {Sweet Bonanza} from a single spin, bonus buys excluded.',
    image: '/challenges/bonanza.svg',
    ageDays: 2,
  },
  {
    title: 'Wanted Dead or a Wild',
    price: 350,
    description: 'Trigger the {Dead Man’s Hand} bonus and land {750x} or more at {$0.20}+ per spin.',
    image: '/challenges/wanted.svg',
    ageDays: 4,
  },
  {
    title: 'Mines Streak',
    price: 100,
    description: 'Clear {18 tiles} on {Mines} with {3 mines} in one round, any bet size.',
    image: '/challenges/mines.svg',
    ageDays: 6,
  },
  {
    title: 'Crash Moonshot',
    price: 150,
    description: 'Cash out at {100x} or more on {Crash} with a bet of at least {$1}.',
    image: '/challenges/crash.svg',
    ageDays: 9,
    won: { by: 0, afterDays: 3 },
  },
  {
    title: 'Plinko Edge',
    price: 75,
    description: 'Hit the {1,000x} edge slot on {Plinko} (16 rows, high risk).',
    image: '/challenges/plinko.svg',
    ageDays: 12,
    won: { by: 2, afterDays: 2 },
  },
  {
    title: 'Big Bass 2,500x',
    price: 400,
    description: 'Land {2,500x} on any {Big Bass} slot at {$0.20}+ per spin.',
    image: '/challenges/bass.svg',
    ageDays: 16,
    won: { by: 1, afterDays: 5 },
  },
  {
    title: 'Old stream challenge',
    price: 50,
    description: 'Cancelled: the game was removed from the site.',
    image: '',
    ageDays: 20,
    status: 2,
  },
  {
    title: 'Clash battle streak',
    price: 60,
    description: 'Win {5} case battles in a row.',
    image: '',
    ageDays: 3,
    category: 'Clash',
  },
];

export async function seedChallenges(app: FastifyInstance): Promise<void> {
  const [existing] = await app.db.select({ n: count() }).from(challenges);
  if ((existing?.n ?? 0) > 0) return;
  const now = app.clock.now().getTime();
  const people = demoUsers.filter((u) => !u.admin);
  await app.db.transaction(async (tx) => {
    for (const p of people) {
      await tx.insert(users).values({ steamId: p.steamId, username: p.name }).onConflictDoNothing();
    }
    for (const c of demoChallenges) {
      const createdAt = new Date(now - c.ageDays * DAY - 3 * HOUR);
      let winnerUserId: string | null = null;
      if (c.won) {
        const steamId = people[c.won.by % people.length]?.steamId ?? '';
        const [winner] = await tx.select({ id: users.id }).from(users).where(eq(users.steamId, steamId));
        winnerUserId = winner?.id ?? null;
      }
      const [row] = await tx
        .insert(challenges)
        .values({
          title: c.title,
          price: centsToText(toCents(c.price)),
          description: c.description,
          category: c.category ?? app.config.site.challengeCategory,
          imageUrl: c.image,
          status: c.won ? 1 : (c.status ?? 0),
          createdAt,
          endedAt: c.won
            ? new Date(createdAt.getTime() + c.won.afterDays * DAY + 5 * HOUR)
            : c.status === 2
              ? createdAt
              : null,
          winnerUserId,
          updatedAt: createdAt,
        })
        .returning({ id: challenges.id });
      if (row && winnerUserId) {
        await enqueueFulfilment(tx, {
          kind: 'challenge',
          reference: challengeReference(row.id),
          userId: winnerUserId,
          description: `Challenge prize: ${c.title}`,
          amount: c.price,
          unit: 'USD',
        });
      }
    }
  });
}
