/**
 * Support rewards and the channel-points bridge (docs/features/support-rewards.md,
 * docs/features/channel-points.md): the admin's amounts, the rewards paid (with reverse and grant),
 * and the Kick channel rewards that pay Kickback points. Admins only.
 */
import { z } from 'zod';
import { idParam } from './strict-int';
import { isAmount, toCents } from '../money';
import { kickUsername } from './chat';
import { defineEndpoint, pageNumber, pageOf } from './endpoint';

export const SUPPORT_POINTS_MAX = 1_000_000;
/** The longest an admin may hold gifted subs before they pay: one day. */
export const GIFT_HOLD_MAX_MINUTES = 24 * 60;
/** Kick allows at most this many channel rewards per channel. */
export const KICK_REWARDS_MAX = 15;

const pointsShape = 'Enter a number of points with at most 2 decimals, like 500.';
const points = (field: string, min: 0 | 0.01 = 0) =>
  z
    .union([z.number(), z.string().trim()], { error: `${field}: ${pointsShape}` })
    .refine((v) => v !== '' && isAmount(v), `${field}: ${pointsShape}`)
    .refine((v) => !isAmount(v) || toCents(v) >= BigInt(Math.round(min * 100)), `${field}: must be at least ${min}.`)
    .refine(
      (v) => !isAmount(v) || toCents(v) <= BigInt(SUPPORT_POINTS_MAX) * 100n,
      `${field}: at most ${SUPPORT_POINTS_MAX.toLocaleString('en-US')}.`,
    )
    .transform((v) => Number(v));

/** A whole number typed in a form (text) or sent as a number. */
const whole = (field: string, min: number, max: number) =>
  z
    .union([z.number(), z.string().trim()], { error: `${field}: enter a whole number.` })
    .refine((v) => v !== '' && Number.isInteger(Number(v)), `${field}: enter a whole number.`)
    .transform(Number)
    .refine((v) => v >= min, `${field}: at least ${min}.`)
    .refine((v) => v <= max, `${field}: at most ${max.toLocaleString('en-US')}.`);

export const supportRewardSettingsBody = z.object({
  enabled: z.boolean({ error: 'enabled: must be true or false.' }),
  subPoints: points('Points per sub'),
  giftPoints: points('Points per gifted sub'),
  kickPoints: points('Points per KICK'),
  followPoints: points('Points for a follow'),
  dailyCap: points('Daily cap'),
  pendingHours: whole('Pending window (hours)', 0, 24 * 30),
  /** Left out: unchanged. 0 = gifted subs pay at once. */
  giftHoldMinutes: whole('Hold gifted subs (minutes)', 0, GIFT_HOLD_MAX_MINUTES).optional(),
});
export type SupportRewardSettingsBody = z.output<typeof supportRewardSettingsBody>;
export type SupportRewardSettingsInput = z.input<typeof supportRewardSettingsBody>;

export const supportRewardSettings = z.object({
  enabled: z.boolean(),
  subPoints: z.number(),
  giftPoints: z.number(),
  kickPoints: z.number(),
  followPoints: z.number(),
  /** Points per user per kind per UTC day; 0 = no cap. */
  dailyCap: z.number(),
  /** How long an event for a not-yet-linked Kick account waits for the link. */
  pendingHours: z.number(),
  /** How long a gifted sub's reward is held (reversible) before it pays; 0 = at once. */
  giftHoldMinutes: z.number(),
  updatedAt: z.string(),
});
export type SupportRewardSettings = z.infer<typeof supportRewardSettings>;

export const supportRewardKindNames = {
  sub: 'Sub',
  gift: 'Gifted subs',
  kicks: 'KICKs',
  follow: 'Follow',
} as const;
export type SupportRewardKindName = keyof typeof supportRewardKindNames;
const kind = z.enum(['sub', 'gift', 'kicks', 'follow'], { error: 'Kind: choose sub, gift, kicks or follow.' });

export const supportReward = z.object({
  id: z.number(),
  kind,
  kickUsername: z.string().nullable(),
  username: z.string().nullable(),
  units: z.number(),
  amount: z.number(),
  status: z.enum(['pending', 'held', 'paid', 'capped', 'skipped', 'expired', 'reversed']),
  note: z.string().nullable(),
  eventAt: z.string(),
  paidAt: z.string().nullable(),
  /** A held gift pays at this time unless reversed first. */
  holdUntil: z.string().nullable(),
});
export type SupportReward = z.infer<typeof supportReward>;

export const supportRewardPage = pageOf(supportReward);
export const supportRewardIdParams = z.object({
  id: idParam,
});

export const supportGrantBody = z.object({
  /** A linked Kick name (with or without "@") or a site user name; a Kick name wins a tie. */
  user: z
    .string({ error: 'User: enter a Kick name or a site user name.' })
    .trim()
    .min(1, 'User: enter a Kick name or a site user name.')
    .max(100, 'User: at most 100 characters.'),
  kind,
  units: whole('Units', 1, 10_000),
  note: z.string().trim().min(1, 'Note: say which event was missed.').max(200, 'Note: at most 200 characters.'),
});
export type SupportGrantBody = z.input<typeof supportGrantBody>;
export type SupportGrant = z.output<typeof supportGrantBody>;

/** The Chat Simulator's support event, signed like Kick's and sent through our webhook (simulator only). */
export const supportSimulateBody = z.object({
  kind,
  /** Null or left out: an anonymous gifter. */
  username: kickUsername.nullish(),
  /** At most 100, as Kick's gift menu (and the webhook's body limit) allows. */
  units: whole('Units', 1, 100).default(1),
});
export type SupportSimulateBody = z.input<typeof supportSimulateBody>;

export const supportRewardMessages = {
  saved: 'Support rewards saved.',
  reversed: 'Reward reversed.',
  granted: 'Reward granted.',
  notPaid: 'Only a paid or held reward can be reversed.',
  rewardCreated: 'Channel reward created on Kick.',
  rewardDeleted: 'Channel reward deleted on Kick.',
  tooManyRewards: `Kick allows at most ${KICK_REWARDS_MAX} channel rewards: delete one first.`,
  kickNotConnected: 'Connect the Kick bot on Admin → Integrations first.',
} as const;

export const channelRewardBody = z.object({
  title: z.string().trim().min(1, 'Title: enter a title.').max(50, 'Title: at most 50 characters.'),
  cost: whole('Cost (channel points)', 1, 10_000_000),
  points: points('Kickback points', 0.01),
});
export type ChannelRewardInput = z.input<typeof channelRewardBody>;

export const channelReward = z.object({
  id: z.string(),
  title: z.string(),
  cost: z.number(),
  points: z.number(),
  redemptions: z.number(),
});
export type ChannelReward = z.infer<typeof channelReward>;
export const channelRewardParams = z.object({ id: z.string().min(1).max(100) });

export const supportRewardEndpoints = {
  settings: defineEndpoint({
    method: 'GET',
    path: '/api/admin/support-rewards/settings',
    access: 'admin',
    response: supportRewardSettings,
  }),
  updateSettings: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/support-rewards/settings',
    access: 'admin',
    body: supportRewardSettingsBody,
    response: z.object({ message: z.string(), settings: supportRewardSettings }),
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/api/admin/support-rewards',
    access: 'admin',
    query: z.object({ page: pageNumber }),
    response: supportRewardPage,
  }),
  /** The gifted subs on hold now (not paid yet, reversible), soonest to pay first. */
  held: defineEndpoint({
    method: 'GET',
    path: '/api/admin/support-rewards/held',
    access: 'admin',
    response: z.array(supportReward),
  }),
  reverse: defineEndpoint({
    method: 'POST',
    path: '/api/admin/support-rewards/:id/reverse',
    access: 'admin',
    params: supportRewardIdParams,
    response: z.object({ message: z.string(), reward: supportReward }),
  }),
  grant: defineEndpoint({
    method: 'POST',
    path: '/api/admin/support-rewards/grant',
    access: 'admin',
    body: supportGrantBody,
    response: z.object({ message: z.string(), reward: supportReward }),
  }),
  simulate: defineEndpoint({
    method: 'POST',
    path: '/api/admin/support-rewards/simulate',
    access: 'admin',
    body: supportSimulateBody,
    response: z.object({ status: z.number() }),
  }),
  channelRewards: defineEndpoint({
    method: 'GET',
    path: '/api/admin/channel-rewards',
    access: 'admin',
    response: z.array(channelReward),
  }),
  createChannelReward: defineEndpoint({
    method: 'POST',
    path: '/api/admin/channel-rewards',
    access: 'admin',
    body: channelRewardBody,
    response: z.object({ message: z.string(), reward: channelReward }),
  }),
  deleteChannelReward: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/channel-rewards/:id',
    access: 'admin',
    params: channelRewardParams,
    response: z.object({ message: z.string() }),
  }),
};
