/**
 * Demo daily rewards (`DEMO_DATA`): the demo user LuckyLuke has claimed the Roobet reward on most
 * past days of this month, so his calendar shows claimed, missed, today and locked days. The
 * payouts are in the fulfilment queue: delivered, except yesterday's, still pending. Runs only
 * when there are no claims yet.
 */
import type { FastifyInstance } from 'fastify';
import { and, count, eq } from 'drizzle-orm';
import { centsToText } from '@kickback/common/money';
import { rewardTypeOf } from '@kickback/common/http/daily-rewards';
import { demoUsers } from '../../config';
import { dailyRewardClaims } from '../../db/schema/daily-rewards';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { users } from '../../db/schema/users';
import { enqueueFulfilment } from '../fulfilment/service';
import { utcDay } from './affiliate';

const DAY_MS = 86_400_000;

export async function seedDailyRewards(app: FastifyInstance): Promise<void> {
  const [existing] = await app.db.select({ n: count() }).from(dailyRewardClaims);
  if ((existing?.n ?? 0) > 0) return;
  const luke = demoUsers.find((u) => u.name === 'LuckyLuke');
  if (!luke) return;
  const [user] = await app.db
    .select({ id: users.id, roobetName: users.roobetName })
    .from(users)
    .where(eq(users.steamId, luke.steamId));
  if (!user) return;
  const info = rewardTypeOf(5);
  const now = app.clock.now();
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const today = now.getUTCDate();
  await app.db.transaction(async (tx) => {
    for (let day = 1; day < today; day++) {
      if (day % 4 === 3) continue; // a missed day now and then
      const at = new Date(monthStart + (day - 1) * DAY_MS + (9 + (day % 11)) * 3_600_000);
      const cents = BigInt(180 + ((day * 7919) % 2400));
      const [claim] = await tx
        .insert(dailyRewardClaims)
        .values({
          userId: user.id,
          rewardType: info.type,
          day: utcDay(at),
          amount: centsToText(cents),
          unit: info.unit,
          createdAt: at,
        })
        .returning({ id: dailyRewardClaims.id });
      if (!claim) continue;
      const reference = `daily:${claim.id}`;
      await enqueueFulfilment(tx, {
        kind: 'daily_reward',
        reference,
        userId: user.id,
        description: `Daily reward (${info.site}) for ${utcDay(at)}${user.roobetName ? ` to ${user.roobetName}` : ''}`,
        amount: centsToText(cents),
        unit: info.unit,
      });
      if (day < today - 1) {
        await tx
          .update(fulfilmentItems)
          .set({ status: 'delivered', handledAt: new Date(at.getTime() + 6 * 3_600_000) })
          .where(and(eq(fulfilmentItems.kind, 'daily_reward'), eq(fulfilmentItems.reference, reference)));
      }
    }
  });
}
