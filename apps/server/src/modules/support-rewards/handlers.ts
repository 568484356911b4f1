/**
 * The Kick event handlers of support rewards, each run in the transaction that claims its delivery
 * (integrations/kick/webhook.ts): parse the documented payload, then keep and pay the reward once.
 */
import type { z } from 'zod';
import type { Tx } from '../../db/client';
import {
  channelFollowed,
  kicksGifted,
  MalformedKickEvent,
  subscriptionGifts,
  subscriptionNewOrRenewal,
  type KickEventHandler,
  type KickEventMeta,
} from '../../integrations/kick/support-events';
import type { KickUser } from '../../integrations/kick/events';
import { recordSupportEvent } from './rewards';

function parse<S extends z.ZodType>(schema: S, payload: unknown, meta: KickEventMeta): z.output<S> {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new MalformedKickEvent(meta.type);
  return parsed.data;
}

/** The supporter, or null when anonymous (the gifter of an anonymous gift has every field null). */
function supporter(user: KickUser | null | undefined) {
  if (!user || user.is_anonymous || !user.user_id) return { kickUserId: null, kickUsername: null };
  return { kickUserId: user.user_id, kickUsername: user.username ?? null };
}

const subscription: KickEventHandler<Tx> = async (tx, payload, meta) => {
  const event = parse(subscriptionNewOrRenewal, payload, meta);
  await recordSupportEvent(
    tx,
    {
      key: `${meta.type}:${meta.messageId}`,
      kind: 'sub',
      ...supporter(event.subscriber),
      units: 1,
      eventAt: meta.receivedAt,
    },
    meta.receivedAt,
  );
};

/** Each gifted sub pays the gifter; the giftees get nothing from this rule. */
const gifts: KickEventHandler<Tx> = async (tx, payload, meta) => {
  const event = parse(subscriptionGifts, payload, meta);
  if (event.giftees.length === 0) return;
  await recordSupportEvent(
    tx,
    {
      key: `${meta.type}:${meta.messageId}`,
      kind: 'gift',
      ...supporter(event.gifter),
      units: event.giftees.length,
      eventAt: meta.receivedAt,
    },
    meta.receivedAt,
  );
};

const kicks: KickEventHandler<Tx> = async (tx, payload, meta) => {
  const event = parse(kicksGifted, payload, meta);
  await recordSupportEvent(
    tx,
    {
      key: `${meta.type}:${meta.messageId}`,
      kind: 'kicks',
      ...supporter(event.sender),
      units: event.gift.amount,
      eventAt: meta.receivedAt,
    },
    meta.receivedAt,
  );
};

/** One bonus per Kick account ever: the key is the account, so a refollow finds it taken. */
const followed: KickEventHandler<Tx> = async (tx, payload, meta) => {
  const event = parse(channelFollowed, payload, meta);
  const who = supporter(event.follower);
  if (!who.kickUserId) return;
  await recordSupportEvent(
    tx,
    { key: `follow:${who.kickUserId}`, kind: 'follow', ...who, units: 1, eventAt: meta.receivedAt },
    meta.receivedAt,
  );
};

export const supportEventHandlers: Record<string, KickEventHandler<Tx>> = {
  'channel.subscription.new': subscription,
  'channel.subscription.renewal': subscription,
  'channel.subscription.gifts': gifts,
  'kicks.gifted': kicks,
  'channel.followed': followed,
};
