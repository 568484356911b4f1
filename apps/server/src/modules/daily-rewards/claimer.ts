/**
 * rewardClaimer: one daily reward claim. Once per user, type and UTC day — the UNIQUE constraint
 * `daily_reward_claims_once_per_day` decides (INSERT … ON CONFLICT DO NOTHING), so fifty
 * simultaneous claims make one row. The claim and its payout in the fulfilment queue are written in
 * one transaction; a person delivers it on the partner site (up to 24 hours,
 * docs/product.md#site-screens-and-routes).
 */
import type { FastifyInstance } from 'fastify';
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import { centsToNumber, centsToText, decimalToNumber } from '@kickback/common/money';
import type {
  Claimability,
  ClaimRefusal,
  MonthlyRewardRecord,
  RewardTypeInfo,
} from '@kickback/common/http/daily-rewards';
import { dailyRewardClaims } from '../../db/schema/daily-rewards';
import type { UserRow } from '../../db/schema/users';
import type { PartnerLinkField } from '../../db/schema/partner-links';
import type { Locale } from '@kickback/common/i18n/locales';
import { AppError, conflict } from '../../lib/errors';
import { said, say, t, type Said } from '../../lib/i18n';
import { verifiedValue } from '../partner-links/service';
import { rowsOf } from '../../db/rows';
import { enqueueFulfilment } from '../fulfilment/service';
import { previousDayWager, utcDay } from './affiliate';
import { earningsOf, loadPolicy } from './policies';

/** The refusals in English (logs, tests); an answer says them in its reader's language (`daily:<name>`). */
export const claimMessages = {
  alreadyClaimed: t('en', 'daily:alreadyClaimed'),
  unavailable: t('en', 'daily:unavailable'),
  nothingToClaim: t('en', 'daily:nothingToClaim'),
  noRoobetWager: t('en', 'daily:noRoobetWager'),
  excluded: t('en', 'daily:excluded'),
} as const;

/**
 * The partner id a type pays out to; the payout cannot be delivered without it, and only a
 * verified link counts (a claimed id may be someone else's: partner-links).
 */
const requiredLinks: Partial<Record<number, { field: PartnerLinkField }>> = {
  1: { field: 'clashId' },
  2: { field: 'rustMagicId' },
  3: { field: 'casesId' },
  5: { field: 'roobetName' },
};

/** "Your Roobet username is pending verification; …" as English words it (`daily:pendingVerification_<field>`). */
export function pendingVerificationMessage(label: string): string {
  return `Your ${label} is pending verification; this reward opens once it is verified.`;
}

class Refusal extends Error {
  constructor(
    readonly reason: ClaimRefusal,
    readonly words: Said,
    readonly status = 409,
  ) {
    super(say('en', words));
  }
}

async function linkedId(app: FastifyInstance, user: UserRow, type: number): Promise<string | null> {
  const need = requiredLinks[type];
  if (!need) return null;
  const value = await verifiedValue(app.db, user.id, need.field);
  if (value !== null) return value;
  const current = user[need.field];
  if (typeof current === 'string' && current.trim() !== '') {
    throw new Refusal('not_verified', said('daily:pendingVerification', { context: need.field }));
  }
  throw new Refusal('not_linked', said('daily:linkFirst', { context: need.field }));
}

/**
 * Every check a claim makes before writing, in the claim's order: not an excluded account, the verified partner id, the
 * policy, today's claim, and the amount (type 5: yesterday's wager under the code). The claim and
 * the calendar's "today" state both ask this, so a case shows Available exactly when a claim
 * would pay (the unique constraint still decides between simultaneous claims).
 */
async function checkClaim(
  app: FastifyInstance,
  user: UserRow,
  info: RewardTypeInfo,
  day: string,
): Promise<{ amount: bigint; partnerId: string | null }> {
  // Excluded accounts (alts, bots) never earn: no claim, no payout.
  if (user.excluded) throw new Refusal('excluded', said('daily:excluded'), 403);
  const partnerId = await linkedId(app, user, info.type);
  const policy = await loadPolicy(app.db, info.type);
  if (!policy.enabled) throw new Refusal('disabled', said('daily:unavailable'));

  // Not the guard (the constraint is): spares a partner call when the answer is known already.
  const [existing] = await app.db
    .select({ id: dailyRewardClaims.id })
    .from(dailyRewardClaims)
    .where(
      and(
        eq(dailyRewardClaims.userId, user.id),
        eq(dailyRewardClaims.rewardType, info.type),
        eq(dailyRewardClaims.day, day),
      ),
    );
  if (existing) throw new Refusal('already_claimed', said('daily:alreadyClaimed'));

  let amount = policy.amount;
  if (info.type === 5) {
    let wager: bigint;
    try {
      wager = await previousDayWager(app, partnerId ?? '');
    } catch (err) {
      if (err instanceof AppError)
        throw new Refusal('stats_unavailable', err.said ?? said('daily:roobetStatsUnavailable'), err.statusCode);
      throw err;
    }
    amount = earningsOf(wager, policy.earningsPercent);
    if (amount <= 0n) {
      throw wager > 0n
        ? new Refusal('nothing_to_claim', said('daily:nothingToClaim'))
        : new Refusal('no_wager', said('daily:noRoobetWager'));
    }
  } else if (amount <= 0n) {
    throw new Refusal('nothing_to_claim', said('daily:nothingToClaim'));
  }
  return { amount, partnerId };
}

/** Whether a claim of this type by this user would pay today, and if not, why (in words, in `locale`). */
export async function claimability(
  app: FastifyInstance,
  user: UserRow,
  info: RewardTypeInfo,
  locale: Locale = 'en',
): Promise<Claimability> {
  try {
    await checkClaim(app, user, info, utcDay(app.clock.now()));
    return { claimable: true, reason: null, message: null };
  } catch (err) {
    if (err instanceof Refusal) return { claimable: false, reason: err.reason, message: say(locale, err.words) };
    throw err;
  }
}

export async function claimDailyReward(
  app: FastifyInstance,
  user: UserRow,
  info: RewardTypeInfo,
): Promise<{ gemAmount: number }> {
  const now = app.clock.now();
  const day = utcDay(now);
  let checked: { amount: bigint; partnerId: string | null };
  try {
    checked = await checkClaim(app, user, info, day);
  } catch (err) {
    if (err instanceof Refusal) throw new AppError(err.status, err.words);
    throw err;
  }
  const { amount, partnerId } = checked;

  return app.db.transaction(async (tx) => {
    const inserted = rowsOf<{ id: string | number }>(
      await tx.execute(sql`
        INSERT INTO daily_reward_claims (user_id, reward_type, day, amount, unit, created_at)
        VALUES (${user.id}, ${info.type}, ${day}, ${centsToText(amount)}::numeric, ${info.unit}, ${now.toISOString()}::timestamptz)
        ON CONFLICT ON CONSTRAINT daily_reward_claims_once_per_day DO NOTHING
        RETURNING id
      `),
    )[0];
    if (!inserted) throw conflict(said('daily:alreadyClaimed'));
    const who = partnerId ? ` to ${partnerId}` : '';
    await enqueueFulfilment(tx, {
      kind: 'daily_reward',
      reference: `daily:${inserted.id}`,
      userId: user.id,
      description: `Daily reward (${info.site}) for ${day}${who}`,
      amount: centsToText(amount),
      unit: info.unit,
    });
    return { gemAmount: centsToNumber(amount) };
  });
}

/** This UTC month's claims of one type by the user (the calendar's records). */
export async function monthlyClaims(
  app: FastifyInstance,
  userId: string,
  type: number,
): Promise<MonthlyRewardRecord[]> {
  const now = app.clock.now();
  const from = utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
  const to = utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
  const rows = await app.db
    .select({ createdAt: dailyRewardClaims.createdAt, amount: dailyRewardClaims.amount })
    .from(dailyRewardClaims)
    .where(
      and(
        eq(dailyRewardClaims.userId, userId),
        eq(dailyRewardClaims.rewardType, type),
        gte(dailyRewardClaims.day, from),
        lt(dailyRewardClaims.day, to),
      ),
    )
    .orderBy(asc(dailyRewardClaims.day));
  return rows.map((r) => ({ createTime: r.createdAt.toISOString(), gemAmount: decimalToNumber(r.amount) }));
}
