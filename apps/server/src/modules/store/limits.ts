/**
 * Store limits (docs/features/store-limits.md), checked inside the purchase's transaction
 * (order-placer.ts) before the order statement runs:
 *
 * - who may buy (`restriction`): Kick subscribers of the channel, read from what Kick's events
 *   and chat tell us about the buyer's linked Kick account (`kick_chat_activity`); viewers whose
 *   highest milestone tier on a partner site this cycle is at least a named tier (the milestones
 *   module's answer); viewers with a broken stream streak to restore (the stream-streaks module,
 *   which order-placer.ts asks to restore it once the order is written); a kind this release does
 *   not know refuses;
 * - at most `limitCount` orders per buyer per window (a UTC day, a UTC week from Monday 00:00, the
 *   current cycle of a partner's leaderboard, or ever);
 * - a cooldown between two orders of the product by the same buyer.
 *
 * The check and the order are made atomic per (buyer, product) by a row of `store_purchase_slots`
 * that the transaction locks first (insert, or lock the existing one): a second purchase of the
 * same product by the same buyer, from any process, waits for the first to commit and then counts
 * its order (each statement of a READ COMMITTED transaction sees what committed before it).
 */
import { sql } from 'drizzle-orm';
import { durationText, type LimitWindow, nextDateText, productRestriction } from '@kickback/common/http/store';
import { siteById, isSiteId } from '@kickback/common/http/leaderboards';
import type { DbOrTx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { Locale } from '@kickback/common/i18n/locales';
import { conflict, forbidden } from '../../lib/errors';
import { said, t } from '../../lib/i18n';
import { reachedAtLeast } from '../milestones/service';
import { lockRestorableStreak } from '../stream-streaks/service';

const DAY = 86_400_000;

interface LimitsRow extends Record<string, unknown> {
  limit_count: number | null;
  limit_window: LimitWindow | null;
  limit_site: number | null;
  cooldown_minutes: number | null;
  restriction: unknown;
  now: Date | string;
}

/** The window holding `now` and the start of the next one (null: ever, or no such leaderboard). */
export function windowOf(
  window: LimitWindow,
  now: Date,
  cycle: { anchor: Date; days: number } | null,
): { start: Date | null; next: Date | null } {
  if (window === 'ever') return { start: null, next: null };
  if (window === 'day') {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    return { start, next: new Date(start.getTime() + DAY) };
  }
  if (window === 'week') {
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const sinceMonday = (now.getUTCDay() + 6) % 7;
    const start = new Date(midnight - sinceMonday * DAY);
    return { start, next: new Date(start.getTime() + 7 * DAY) };
  }
  if (!cycle || cycle.days <= 0) return { start: null, next: null };
  const length = cycle.days * DAY;
  const k = Math.floor((now.getTime() - cycle.anchor.getTime()) / length);
  const start = new Date(cycle.anchor.getTime() + k * length);
  return { start, next: new Date(start.getTime() + length) };
}

async function isSubscriber(tx: DbOrTx, userId: string): Promise<boolean> {
  const rows = rowsOf<{ sub: boolean }>(
    await tx.execute(sql`
      SELECT (a.is_subscriber OR coalesce(a.subscribed_until > now(), false)) AS sub
      FROM users u JOIN kick_chat_activity a ON a.kick_user_id = u.kick_id
      WHERE u.id = ${userId}
    `),
  );
  return rows[0]?.sub === true;
}

/** The partner leaderboard's cycle (its anchor and length), null when that leaderboard is gone. */
async function cycleOf(tx: DbOrTx, site: number): Promise<{ anchor: Date; days: number } | null> {
  const rows = rowsOf<{ anchor: Date | string; days: number }>(
    await tx.execute(
      sql`SELECT period_anchor AS anchor, period_days AS days FROM leaderboard_sites WHERE site = ${site}`,
    ),
  );
  const row = rows[0];
  return row ? { anchor: new Date(row.anchor), days: Number(row.days) } : null;
}

/**
 * Refuses (403 who may not buy, 409 a limit or cooldown) or returns having locked the buyer's slot
 * for this product until the transaction ends. Does nothing for a product without limits or one
 * that does not exist (the order statement says so). A streak restore also holds the buyer's
 * streak row locked, and says so (`restoresStreak`) so that the order restores it.
 */
const two = (n: number) => String(n).padStart(2, '0');

/**
 * When a limit opens again, in `locale`: English as the contract words it ("Monday 00:00 UTC",
 * "3 Mar 2027 00:00 UTC"), the other languages through Intl ("lunes, 00:00 UTC").
 */
export function nextDateIn(locale: Locale, next: Date, now: Date): string {
  if (locale === 'en') return nextDateText(next, now);
  const time = `${two(next.getUTCHours())}:${two(next.getUTCMinutes())} UTC`;
  const near = next.getTime() - now.getTime() < 7 * 86_400_000;
  const date = new Intl.DateTimeFormat(
    locale,
    near ? { weekday: 'long', timeZone: 'UTC' } : { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' },
  ).format(next);
  return `${date}, ${time}`;
}

export async function enforceLimits(
  tx: DbOrTx,
  userId: string,
  productId: number,
  clockNow: Date,
): Promise<{ restoresStreak: boolean }> {
  const product = rowsOf<LimitsRow>(
    await tx.execute(sql`
      SELECT limit_count, limit_window, limit_site, cooldown_minutes, restriction, now() AS now
      FROM products WHERE id = ${productId}
    `),
  )[0];
  if (!product) return { restoresStreak: false };
  const now = new Date(product.now);
  let restoresStreak = false;
  if (product.restriction !== null) {
    const restriction = productRestriction.safeParse(product.restriction);
    // A kind this release does not know (written by a newer one) refuses rather than admits.
    if (!restriction.success) throw forbidden(said('store:inactive'));
    const rule = restriction.data;
    if (rule.kind === 'subscribers' && !(await isSubscriber(tx, userId))) {
      throw forbidden(said('store:subscribersOnly'));
    }
    if (rule.kind === 'tier') {
      // The ladder's cycle is the leaderboard's, read at the app's clock as the ladder reads it.
      const reached = isSiteId(rule.site) && (await reachedAtLeast(tx, userId, rule.site, rule.tier, clockNow));
      if (!reached) {
        const site = siteById(rule.site)?.name;
        throw forbidden(
          site
            ? said('store:tierOnly', { tier: rule.tier, site })
            : said('store:tierOnlyUnknownSite', { tier: rule.tier }),
        );
      }
    }
    if (rule.kind === 'streak_restore') {
      // Locks the buyer's streak row: a second restore waits, then finds nothing left to restore.
      if (!(await lockRestorableStreak(tx, userId))) throw conflict(said('store:noBrokenStreak'));
      restoresStreak = true;
    }
  }
  if (product.limit_count === null && product.cooldown_minutes === null) return { restoresStreak };

  // The (buyer, product) lock: every purchase of this product by this buyer passes here in turn.
  await tx.execute(sql`
    INSERT INTO store_purchase_slots (user_id, product_id) VALUES (${userId}, ${productId})
    ON CONFLICT (user_id, product_id) DO UPDATE SET user_id = excluded.user_id
  `);

  const window =
    product.limit_count !== null && product.limit_window !== null
      ? windowOf(
          product.limit_window,
          now,
          product.limit_window === 'cycle' && product.limit_site !== null
            ? await cycleOf(tx, product.limit_site)
            : null,
        )
      : null;
  // Orders the admin rejected (refunded) do not count.
  const counted = rowsOf<{ n: number | string; last: Date | string | null }>(
    await tx.execute(sql`
      SELECT count(*) FILTER (WHERE ${window?.start ?? null}::timestamptz IS NULL OR o.created_at >= ${window?.start ?? null}::timestamptz) AS n,
        max(o.created_at) AS last
      FROM orders o
      WHERE o.user_id = ${userId} AND o.product_id = ${productId}
        AND NOT EXISTS (
          SELECT 1 FROM fulfilment_items f
          WHERE f.kind = 'order' AND f.reference = o.id::text AND f.status = 'rejected'
        )
    `),
  )[0];
  const bought = Number(counted?.n ?? 0);
  if (product.limit_count !== null && product.limit_window !== null && window && bought >= product.limit_count) {
    const count = product.limit_count;
    const limitWindow = product.limit_window;
    const next = window.next;
    // The limit and the date are worded in the reader's language (Intl), English as before.
    const limit = (locale: Locale) => t(locale, 'store:limit', { context: limitWindow, n: count });
    throw conflict(
      next
        ? said('store:limitReachedNext', (locale) => ({ limit: limit(locale), next: nextDateIn(locale, next, now) }))
        : said('store:limitReachedOnce', (locale) => ({ limit: limit(locale) })),
    );
  }
  if (product.cooldown_minutes !== null && counted?.last) {
    const free = new Date(counted.last).getTime() + product.cooldown_minutes * 60_000;
    if (free > now.getTime()) throw conflict(said('store:cooldown', { remaining: durationText(free - now.getTime()) }));
  }
  return { restoresStreak };
}
