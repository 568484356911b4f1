/**
 * Making a call (docs/features/slot-calls.md#calling-a-slot): every rule checked in one
 * transaction behind the settings row's lock, so the checks that count (open calls per viewer, the
 * cooldown, the queue length) hold however many calls arrive at once, and the cost is taken
 * through the ledger in the same commit. A refusal throws `CallRefused`: the transaction rolls
 * back, nothing changes, and the viewer is told the reason.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { slotNameProblem } from '@kickback/common/http/slot-calls';
import { slotKey } from '@kickback/common/slot-calls/match';
import { centsToText, formatAmount, toCents } from '@kickback/common/money';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { slotCalls, slotCallSettings, type SlotCallRow, type SlotCallSettingsRow } from '../../db/schema/slot-calls';
import type { LinkedChatter } from '../chat/service';
import { isBanned } from '../kick-bans/service';
import { InsufficientBalanceError, applyBalanceChange } from '../ledger/service';
import { currentMatcher } from './catalogue';

export class CallRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface CallRequest {
  messageId: string;
  kickUserId: string;
  kickUsername: string;
  /** The sender's subscriber badge on this message. */
  isSubscriber: boolean;
  linkedUser: LinkedChatter | null;
  typed: string;
}

export interface CallHooks {
  /** Right after the settings row was locked. Tests race here. */
  afterSettingsLock?(tx: Tx): Promise<void>;
}

/** The settings row, locked until the transaction ends: every change of the queue queues here. */
export async function lockSettings(tx: Tx): Promise<SlotCallSettingsRow> {
  const [row] = await tx.select().from(slotCallSettings).where(eq(slotCallSettings.id, 1)).for('update');
  return row!;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Whether the sender counts as a subscriber: the badge, or a subscription still running. */
async function isSub(tx: Tx, request: CallRequest, now: Date): Promise<boolean> {
  if (request.isSubscriber) return true;
  const [row] = rowsOf<{ sub: boolean }>(
    await tx.execute(sql`
      SELECT coalesce(a.subscribed_until > ${now.toISOString()}::timestamptz, false) AS sub
      FROM kick_chat_activity a WHERE a.kick_user_id = ${request.kickUserId}`),
  );
  return row?.sub === true;
}

/** Makes the call or throws CallRefused; `once` marks the chat message handled in this transaction. */
export async function makeCall(
  tx: Tx,
  request: CallRequest,
  now: Date,
  once: (tx: Tx) => Promise<boolean>,
  hooks: CallHooks = {},
): Promise<SlotCallRow | null> {
  const problem = slotNameProblem(request.typed);
  if (problem) throw new CallRefused(`${problem}: use !sr [SLOT], for example !sr Gates of Olympus.`);
  const rules = await lockSettings(tx);
  await hooks.afterSettingsLock?.(tx);
  if (!rules.isOpen) throw new CallRefused('slot calls are closed right now.');
  if (!(await once(tx))) return null;

  const user = request.linkedUser;
  const cost = toCents(rules.cost);
  if (user?.excluded) throw new CallRefused('your account is excluded from slot calls.');
  if (await isBanned(tx, { kickUserId: request.kickUserId }, now)) throw new CallRefused('you are banned in chat.');
  if ((rules.linkedOnly || cost > 0n) && !user) {
    throw new CallRefused(
      cost > 0n
        ? `a call costs ${formatAmount(centsToText(cost))} points: link your Kick account on the site first (!verify).`
        : 'link your Kick account on the site first (!verify).',
    );
  }
  if (rules.subsOnly && !(await isSub(tx, request, now))) throw new CallRefused('slot calls are for subscribers only.');

  const typed = request.typed.trim();
  const match = (await currentMatcher(tx))(typed);
  const known = match.kind !== 'unknown';
  const slot = known ? match.slot.name : typed;
  const provider = known ? match.slot.provider : null;
  if (!known && rules.unknownSlots === 'refuse') {
    throw new CallRefused(`"${typed}" is not in the slot catalogue: check the name.`);
  }
  const banned = new Set(rules.blacklist.map(slotKey));
  if (banned.has(slotKey(slot))) throw new CallRefused(`${slot} is blacklisted here: call another slot.`);
  if (provider && banned.has(slotKey(provider))) {
    throw new CallRefused(`${provider} slots are blacklisted here: call another slot.`);
  }

  const mine = await tx
    .select({ status: slotCalls.status, calledAt: slotCalls.calledAt })
    .from(slotCalls)
    .where(eq(slotCalls.kickUserId, request.kickUserId))
    .orderBy(desc(slotCalls.calledAt))
    .limit(1000);
  const open = mine.filter((c) => c.status === 'queued' || c.status === 'playing').length;
  if (open >= rules.maxPerViewer) {
    throw new CallRefused(
      `you already have ${plural(open, 'call')} in the queue (at most ${rules.maxPerViewer} at a time).`,
    );
  }
  const last = mine[0]?.calledAt;
  if (last && rules.cooldownSeconds > 0) {
    const wait = Math.ceil((last.getTime() + rules.cooldownSeconds * 1000 - now.getTime()) / 1000);
    if (wait > 0) throw new CallRefused(`wait ${plural(wait, 'second')} before your next call.`);
  }
  const [queue] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(slotCalls)
    .where(inArray(slotCalls.status, ['queued', 'playing']));
  if ((queue?.n ?? 0) >= rules.maxQueue) throw new CallRefused(`the queue is full (${rules.maxQueue} calls).`);

  const [row] = await tx
    .insert(slotCalls)
    .values({
      messageId: request.messageId,
      kickUserId: request.kickUserId,
      kickUsername: request.kickUsername,
      userId: user?.id ?? null,
      slot,
      provider,
      typed,
      known,
      cost: centsToText(cost),
      calledAt: now,
    })
    .returning();
  if (cost > 0n) {
    try {
      await applyBalanceChange(tx, {
        userId: user!.id,
        currency: 'points',
        delta: { cents: -cost },
        reason: 'slot_call',
        reference: String(row!.id),
        memo: slot,
      });
    } catch (err) {
      if (err instanceof InsufficientBalanceError) {
        const why = err.message.charAt(0).toLowerCase() + err.message.slice(1);
        throw new CallRefused(`a call costs ${formatAmount(centsToText(cost))} points: ${why}`);
      }
      throw err;
    }
  }
  await tx
    .update(slotCallSettings)
    .set({ version: sql`${slotCallSettings.version} + 1` })
    .where(and(eq(slotCallSettings.id, 1)));
  return row!;
}
