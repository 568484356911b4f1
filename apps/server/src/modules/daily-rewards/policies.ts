/**
 * Per-type daily reward policies (admin page "Daily Reward Policies"): on or off, a fixed amount
 * (types 0–4), or for type 5 the streamer's affiliate earnings as a percentage of the previous
 * day's weighted wager. Changes are audited.
 */
import { asc, eq } from 'drizzle-orm';
import { centsToText, decimalToNumber, toCents } from '@kickback/common/money';
import type { RewardPolicy, RewardPolicyInput } from '@kickback/common/http/daily-rewards';
import type { DbOrTx } from '../../db/client';
import { dailyRewardPolicies, type DailyRewardPolicyRow } from '../../db/schema/daily-rewards';
import { notFound } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';

export interface Policy {
  type: number;
  enabled: boolean;
  /** Hundredths. */
  amount: bigint;
  /** Ten-thousandths of a percent (0.5% = 5000n). */
  earningsPercent: bigint;
}

/** "0.5000" → 5000n: exact, no floats. */
export function percentToUnits(text: string | number): bigint {
  const m = /^(\d+)(?:\.(\d{1,4})\d*)?$/.exec(String(text).trim());
  if (!m) throw new RangeError(`not a percentage: ${text}`);
  return BigInt(m[1] ?? '0') * 10_000n + BigInt((m[2] ?? '').padEnd(4, '0'));
}

function unitsToPercentText(units: bigint): string {
  return `${units / 10_000n}.${(units % 10_000n).toString().padStart(4, '0')}`;
}

function policyOf(row: DailyRewardPolicyRow): Policy {
  return {
    type: row.rewardType,
    enabled: row.enabled,
    amount: toCents(decimalToNumber(row.amount)),
    earningsPercent: percentToUnits(row.earningsPercent),
  };
}

export function presentPolicy(p: Policy): RewardPolicy {
  return {
    type: p.type,
    enabled: p.enabled,
    amount: Number(centsToText(p.amount)),
    earningsPercent: Number(unitsToPercentText(p.earningsPercent)),
  };
}

export async function loadPolicy(db: DbOrTx, type: number): Promise<Policy> {
  const [row] = await db.select().from(dailyRewardPolicies).where(eq(dailyRewardPolicies.rewardType, type));
  if (!row) throw notFound('No policy for this reward type.');
  return policyOf(row);
}

export async function loadPolicies(db: DbOrTx): Promise<Policy[]> {
  const rows = await db.select().from(dailyRewardPolicies).orderBy(asc(dailyRewardPolicies.rewardType));
  return rows.map(policyOf);
}

/** The affiliate share of a wager (hundredths), rounded down to the cent. */
export function earningsOf(wagerCents: bigint, earningsPercent: bigint): bigint {
  return (wagerCents * earningsPercent) / 1_000_000n;
}

export async function savePolicy(
  tx: DbOrTx,
  actor: Actor,
  type: number,
  input: RewardPolicyInput,
  now: Date,
): Promise<Policy> {
  const [beforeRow] = await tx
    .select()
    .from(dailyRewardPolicies)
    .where(eq(dailyRewardPolicies.rewardType, type))
    .for('update');
  if (!beforeRow) throw notFound('No policy for this reward type.');
  const [row] = await tx
    .update(dailyRewardPolicies)
    .set({
      enabled: input.enabled,
      amount: centsToText(toCents(input.amount)),
      earningsPercent: unitsToPercentText(percentToUnits(input.earningsPercent)),
      updatedAt: now,
    })
    .where(eq(dailyRewardPolicies.rewardType, type))
    .returning();
  if (!row) throw notFound('No policy for this reward type.');
  const after = policyOf(row);
  await recordAudit(tx, actor, {
    action: 'daily_reward.policy',
    targetType: 'daily_reward_type',
    targetId: String(type),
    before: presentPolicy(policyOf(beforeRow)),
    after: presentPolicy(after),
  });
  return after;
}
