/**
 * Earning that cannot be farmed (docs/features/fair-earning.md): the admin's daily caps, the
 * real-chat gate, the account and link ages, the signals' retention, the possible-alts view and the
 * recent refused conversions. Admins only.
 */
import { z } from 'zod';
import { isAmount, toCents } from '../money';
import { defineEndpoint } from './endpoint';

export const FAIR_CAP_MAX = 10_000_000;
/** The window the real-chat gate counts distinct linked chatters in. */
export const REAL_CHAT_WINDOW_MINUTES = 10;

const capShape = 'enter a number of points with at most 2 decimals (0 = no cap).';
const cap = (field: string) =>
  z
    .union([z.number(), z.string().trim()], { error: `${field}: ${capShape}` })
    .refine((v) => v !== '' && isAmount(v), `${field}: ${capShape}`)
    .refine((v) => !isAmount(v) || toCents(v) >= 0n, `${field}: cannot be negative.`)
    .refine(
      (v) => !isAmount(v) || toCents(v) <= BigInt(FAIR_CAP_MAX) * 100n,
      `${field}: at most ${FAIR_CAP_MAX.toLocaleString('en-US')}.`,
    )
    .transform((v) => Number(v));

const whole = (field: string, min: number, max: number) =>
  z
    .union([z.number(), z.string().trim()], { error: `${field}: enter a whole number.` })
    .refine((v) => v !== '' && Number.isInteger(Number(v)), `${field}: enter a whole number.`)
    .transform(Number)
    .refine((v) => v >= min, `${field}: at least ${min}.`)
    .refine((v) => v <= max, `${field}: at most ${max.toLocaleString('en-US')}.`);

export const fairEarningSettingsBody = z.object({
  channelPointsDailyCap: cap('Channel points daily cap'),
  chatPointsDailyCap: cap('Chat points daily cap'),
  realChatMinChatters: whole('Distinct chatters needed', 0, 1000),
  minKickAccountDays: whole('Kick account age (days)', 0, 3650),
  minLinkDays: whole('Link age (days)', 0, 3650),
  signalRetentionDays: whole('Keep signals (days)', 1, 730),
});
export type FairEarningSettingsInput = z.input<typeof fairEarningSettingsBody>;
export type FairEarningSettingsBody = z.output<typeof fairEarningSettingsBody>;

export const fairEarningSettings = z.object({
  channelPointsDailyCap: z.number(),
  chatPointsDailyCap: z.number(),
  realChatMinChatters: z.number(),
  minKickAccountDays: z.number(),
  minLinkDays: z.number(),
  signalRetentionDays: z.number(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type FairEarningSettings = z.infer<typeof fairEarningSettings>;

export const signalKinds = ['address', 'device', 'partner'] as const;
export type SignalKind = (typeof signalKinds)[number];
export const signalKindNames: Record<SignalKind, string> = {
  address: 'Sign-in address',
  device: 'Device',
  partner: 'Partner account id',
};

export const altAccount = z.object({
  id: z.string(),
  username: z.string(),
  kickUsername: z.string().nullable(),
  excluded: z.boolean(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
});
export const altGroup = z.object({
  /** Stable while the signal is kept; never the hash itself. */
  key: z.string(),
  kind: z.enum(signalKinds),
  users: z.array(altAccount),
});
export type AltGroup = z.infer<typeof altGroup>;

export const altGroups = z.object({ groups: z.array(altGroup), retentionDays: z.number() });

export const refusedConversion = z.object({
  id: z.string(),
  kickUsername: z.string().nullable(),
  username: z.string().nullable(),
  reward: z.string(),
  reason: z.string(),
  at: z.string(),
});
export const refusedConversions = z.object({ items: z.array(refusedConversion) });

/** The words of a refusal: said in the admin's list and logged when Kick is told (refund). */
export const fairEarningRefusals = {
  channelCap: (cap: string) => `Daily cap on channel points reached (${cap} points a day).`,
  linkAge: (days: number) => `Kick account linked less than ${days} day${days === 1 ? '' : 's'} ago.`,
  accountAge: (days: number) => `Kick account known to this channel for less than ${days} day${days === 1 ? '' : 's'}.`,
} as const;

export const fairEarningMessages = { saved: 'Fair earning settings saved.' } as const;

export const fairEarningEndpoints = {
  settings: defineEndpoint({
    method: 'GET',
    path: '/api/admin/fair-earning',
    access: 'admin',
    response: fairEarningSettings,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/fair-earning',
    access: 'admin',
    body: fairEarningSettingsBody,
    response: z.object({ message: z.string(), settings: fairEarningSettings }),
  }),
  alts: defineEndpoint({
    method: 'GET',
    path: '/api/admin/fair-earning/alts',
    access: 'admin',
    response: altGroups,
  }),
  refusals: defineEndpoint({
    method: 'GET',
    path: '/api/admin/fair-earning/refusals',
    access: 'admin',
    response: refusedConversions,
  }),
};
