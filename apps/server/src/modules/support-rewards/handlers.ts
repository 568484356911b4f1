/**
 * The Kick event handlers of support rewards, each run in the transaction that claims its delivery
 * (integrations/kick/webhook.ts): parse the documented payload, then keep and pay the reward once
 * per event — keyed by what happened (./event-key.ts), not by the delivery, which Kick may repeat
 * under a new message id.
 */
import type { z } from 'zod';
import type { Tx } from '../../db/client';
import {
  channelFollowed,
  kicksGifted,
  MalformedKickEvent,
  subscriptionGifts,
  subscriptionNewOrRenewal,
  type KickEventMeta,
} from '../../integrations/kick/support-events';
import type { KickUser } from '../../integrations/kick/events';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/users';
import { grantSupportTickets } from '../raffles/service';
import { recordSupportEvent, type SupportEvent } from './rewards';
import { contentKeys, type EventContent } from './event-key';
import { scheduleHoldEnd, type HoldTimers } from './hold';
import type { AfterCommit } from '../../lib/after-commit';

/** What a handler needs besides its transaction: the timers of a held gift, and the commit's queue. */
export interface SupportEventContext {
  timers: HoldTimers;
  after: AfterCommit;
}
type SupportEventHandler = (tx: Tx, payload: unknown, meta: KickEventMeta, ctx: SupportEventContext) => Promise<void>;

function parse<S extends z.ZodType>(schema: S, payload: unknown, meta: KickEventMeta): z.output<S> {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new MalformedKickEvent(meta.type);
  return parsed.data;
}

/**
 * Raffle tickets for the support (docs/features/raffles.md#tickets): in every open raffle
 * that switched this source on, for a linked supporter, once per event.
 */
async function raffleTickets(
  tx: Tx,
  who: { kickUserId: string | null },
  source: 'sub' | 'gift' | 'kicks',
  units: number,
  key: string,
  meta: KickEventMeta,
): Promise<void> {
  if (!who.kickUserId) return;
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.kickId, who.kickUserId));
  if (user) await grantSupportTickets(tx, user.id, source, units, key, meta.receivedAt);
}

/**
 * Keeps the reward once per event and grants the raffle tickets of that same event; a repeat under
 * another delivery finds its key and does neither. A held gift (./hold.ts) gets its tickets when
 * its hold ends and it pays, not now.
 */
async function onceForEvent(
  tx: Tx,
  content: EventContent,
  reward: Omit<SupportEvent, 'key' | 'eventAt'>,
  tickets: 'sub' | 'gift' | 'kicks',
  meta: KickEventMeta,
  ctx: SupportEventContext,
): Promise<void> {
  const [key, ...earlier] = contentKeys(content, meta.receivedAt);
  const kept = await recordSupportEvent(
    tx,
    { key: key!, ...reward, eventAt: meta.receivedAt },
    meta.receivedAt,
    earlier,
  );
  if (kept?.status === 'held') await scheduleHoldEnd(ctx.timers, tx, ctx.after, kept);
  else if (kept) await raffleTickets(tx, reward, tickets, reward.units, key!, meta);
}

/** The supporter, or null when anonymous (the gifter of an anonymous gift has every field null). */
function supporter(user: KickUser | null | undefined) {
  if (!user || user.is_anonymous || !user.user_id) return { kickUserId: null, kickUsername: null };
  return { kickUserId: user.user_id, kickUsername: user.username ?? null };
}

const subscription: SupportEventHandler = async (tx, payload, meta, ctx) => {
  const event = parse(subscriptionNewOrRenewal, payload, meta);
  const who = supporter(event.subscriber);
  const content = {
    type: meta.type,
    parts: [who.kickUserId ?? who.kickUsername, event.duration],
    kickCreatedAt: event.created_at,
  };
  await onceForEvent(tx, content, { kind: 'sub', ...who, units: 1 }, 'sub', meta, ctx);
};

/** Each gifted sub pays the gifter; the giftees get nothing from this rule. */
const gifts: SupportEventHandler = async (tx, payload, meta, ctx) => {
  const event = parse(subscriptionGifts, payload, meta);
  if (event.giftees.length === 0) return;
  const who = supporter(event.gifter);
  const units = event.giftees.length;
  const giftees = event.giftees
    .map((g) => g.user_id ?? g.username ?? '?')
    .sort()
    .join(',');
  const content = {
    type: meta.type,
    parts: [who.kickUserId ?? 'anonymous', units, giftees],
    kickCreatedAt: event.created_at,
  };
  await onceForEvent(tx, content, { kind: 'gift', ...who, units }, 'gift', meta, ctx);
};

const kicks: SupportEventHandler = async (tx, payload, meta, ctx) => {
  const event = parse(kicksGifted, payload, meta);
  const who = supporter(event.sender);
  const units = event.gift.amount;
  const { type, name, message } = event.gift;
  const content = {
    type: meta.type,
    parts: [who.kickUserId ?? who.kickUsername, units, type, name, message],
    kickCreatedAt: event.created_at,
  };
  await onceForEvent(tx, content, { kind: 'kicks', ...who, units }, 'kicks', meta, ctx);
};

/** One bonus per Kick account ever: the key is the account, so a refollow finds it taken. */
const followed: SupportEventHandler = async (tx, payload, meta) => {
  const event = parse(channelFollowed, payload, meta);
  const who = supporter(event.follower);
  if (!who.kickUserId) return;
  await recordSupportEvent(
    tx,
    { key: `follow:${who.kickUserId}`, kind: 'follow', ...who, units: 1, eventAt: meta.receivedAt },
    meta.receivedAt,
  );
};

export const supportEventHandlers: Record<string, SupportEventHandler> = {
  'channel.subscription.new': subscription,
  'channel.subscription.renewal': subscription,
  'channel.subscription.gifts': gifts,
  'kicks.gifted': kicks,
  'channel.followed': followed,
};
