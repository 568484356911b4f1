/**
 * Gifters hold the subscriber role while the subs they gave run (docs/features/discord-roles.md#who-counts-as-a-subscriber):
 * the gift's end (Kick's `expires_at`, else a month) is kept per gifter, the later one winning.
 */
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../db/client';
import { discordSubGifters } from '../../db/schema/discord-roles';
import type { subscriptionGifts } from '../../integrations/kick/support-events';

const ASSUMED_GIFT_MS = 30 * 24 * 60 * 60_000;

export async function recordGifter(
  tx: Tx,
  event: z.output<typeof subscriptionGifts>,
  expiresAt: Date | null,
  at: Date,
): Promise<void> {
  const gifter = event.gifter;
  if (!gifter?.user_id || gifter.is_anonymous || event.giftees.length === 0) return;
  const until = expiresAt ?? new Date(at.getTime() + ASSUMED_GIFT_MS);
  await tx
    .insert(discordSubGifters)
    .values({ kickUserId: gifter.user_id, until, updatedAt: at })
    .onConflictDoUpdate({
      target: discordSubGifters.kickUserId,
      set: { until: sql`GREATEST(${discordSubGifters.until}, excluded.until)`, updatedAt: at },
    });
}
