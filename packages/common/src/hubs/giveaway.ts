/**
 * The giveaway hub `/KickGiveAway` (docs/product.md#live-calls; admins only for every call) and the giveaway
 * state of docs/product.md#live-entities, with the bounds of docs/product.md#live-validation. The public OBS wheel listens on its own
 * read-only hub (./giveaway-overlay), so this one never has to tell a visitor apart.
 */
import { z } from 'zod';
import { call, defineHub, noPayload } from './hub';

/** Subs Luck 1–5 step 1, Chat Activity Filter 0–600 s step 5 (docs/product.md#live-validation, docs/product.md#live-constants-and-limits). */
export const SUB_LUCK = { min: 1, max: 5 } as const;
export const CHAT_ACTIVITY = { min: 0, max: 600, step: 5 } as const;
/** Re-win cooldown (docs/features/giveaway.md#entering-and-the-roll): default 24 h, at most 30 days. */
export const REWIN_COOLDOWN = { defaultSeconds: 86_400, maxSeconds: 30 * 86_400 } as const;
export const WINNERS_PER_ROLL = { min: 1, max: 10 } as const;
export const PRIZE_POINTS_MAX = 1_000_000;
/** "Linked at least N days" (docs/features/giveaway.md#entering-and-the-roll): 0 is off, at most a year. */
export const MIN_LINKED_DAYS = { min: 0, max: 365 } as const;
export const KEY_MAX_LENGTH = 50;

export const giveawaySettings = z.object({
  isSubOnly: z.boolean(),
  isClashIdLinkedOnly: z.boolean(),
  isRustMagicCodeOnly: z.boolean(),
  isRoobetCodeOnly: z.boolean(),
  subLuck: z
    .number({ error: 'Subs Luck must be a whole number from 1 to 5.' })
    .int('Subs Luck must be a whole number from 1 to 5.')
    .min(SUB_LUCK.min, 'Subs Luck must be from 1 to 5.')
    .max(SUB_LUCK.max, 'Subs Luck must be from 1 to 5.'),
  chatActivityFilterInSeconds: z
    .number({ error: 'Enter the Chat Activity Filter in seconds: 0 to 600 in steps of 5.' })
    .int('Chat Activity Filter must be 0 to 600 seconds in steps of 5.')
    .min(CHAT_ACTIVITY.min, 'Chat Activity Filter must be 0 to 600 seconds in steps of 5.')
    .max(CHAT_ACTIVITY.max, 'Chat Activity Filter must be 0 to 600 seconds in steps of 5.')
    .multipleOf(CHAT_ACTIVITY.step, 'Chat Activity Filter must be 0 to 600 seconds in steps of 5.'),
  /** A winner cannot win again for this long, across rounds. */
  rewinCooldownInSeconds: z
    .number({ error: 'Enter the re-win cooldown: 0 to 30 days.' })
    .int('The re-win cooldown must be whole seconds.')
    .min(0, 'The re-win cooldown must be 0 to 30 days.')
    .max(REWIN_COOLDOWN.maxSeconds, 'The re-win cooldown must be 0 to 30 days.'),
  winnersPerRoll: z
    .number({ error: 'Enter the winners per roll: a whole number from 1 to 10.' })
    .int('Winners per roll must be a whole number from 1 to 10.')
    .min(WINNERS_PER_ROLL.min, 'Winners per roll must be from 1 to 10.')
    .max(WINNERS_PER_ROLL.max, 'Winners per roll must be from 1 to 10.'),
  /** Points credited to each linked winner through the ledger; 0 for none. */
  prizePoints: z
    .number({ error: 'Enter the point prize: 0 for none.' })
    .min(0, 'The point prize must be 0 or more.')
    .max(PRIZE_POINTS_MAX, 'The point prize must be at most 1,000,000.')
    .refine((n) => Math.round(n * 100) === n * 100, 'The point prize has at most 2 decimals.'),
  /** Only a Kick account linked to a site account at least this many days ago enters; 0 is off. */
  minLinkedDays: z
    .number({ error: 'Enter the days linked: 0 (off) to 365.' })
    .int('Days linked must be a whole number from 0 to 365.')
    .min(MIN_LINKED_DAYS.min, 'Days linked must be from 0 (off) to 365.')
    .max(MIN_LINKED_DAYS.max, 'Days linked must be from 0 (off) to 365.'),
});
export type GiveawaySettings = z.infer<typeof giveawaySettings>;

/**
 * `UpdateStateSettings`: the six settings of docs/product.md#live-entities (required), and this site's four
 * additions, each optional — left out, it keeps its stored value.
 */
export const giveawaySettingsUpdate = giveawaySettings.partial({
  rewinCooldownInSeconds: true,
  winnersPerRoll: true,
  prizePoints: true,
  minLinkedDays: true,
});
export type GiveawaySettingsUpdate = z.infer<typeof giveawaySettingsUpdate>;

export const giveawayKeyText = z
  .string()
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1, 'A key cannot be empty.')
      .max(KEY_MAX_LENGTH, `A key is at most ${KEY_MAX_LENGTH} characters.`)
      .regex(/^[^\p{Cc}]+$/u, 'A key cannot contain control characters.'),
  );

export const giveawayKey = z.object({ key: z.string(), isActive: z.boolean() });
export type GiveawayKey = z.infer<typeof giveawayKey>;

export const participantAccount = z.object({
  avatarUrl: z.string().nullable(),
  clashId: z.string().nullable(),
  steam64id: z.string().nullable(),
  rustMagicId: z.string().nullable(),
  howlId: z.string().nullable(),
  roobetName: z.string().nullable(),
});

/** A participant or winner (docs/product.md#live-entities): a Kick chatter, linked to a site user or not. */
export const giveawayParticipant = z.object({
  kickUserId: z.string(),
  username: z.string(),
  identity: z.object({ color: z.string().nullable() }),
  isSubscriber: z.boolean(),
  /** The linked site account; null for a chatter who never linked Kick. */
  account: participantAccount.nullable(),
  isActiveOnClash: z.boolean(),
  isActiveOnCsGoBig: z.boolean(),
  isActiveRustMagic: z.boolean(),
  isActiveOnHowl: z.boolean(),
  isActiveOnRoobet: z.boolean(),
  /** Wagered at least 10,000 under the code in the current period on one linked site. */
  wagered10k: z.boolean(),
});
export type GiveawayParticipant = z.infer<typeof giveawayParticipant>;

export const winnerMessage = z.object({
  sender: z.object({ username: z.string(), identity: z.object({ color: z.string().nullable() }) }),
  content: z.string(),
});
export type WinnerMessage = z.infer<typeof winnerMessage>;

/** One roll as the admin sees it: the winners and everything a verifier needs. */
export const giveawayRoll = z.object({
  rollId: z.string(),
  rolledAt: z.string(),
  /** When every spinner (admin page, overlay) lands: rolledAt + 3000 ms. */
  landsAt: z.string(),
  seedHash: z.string(),
  serverSeed: z.string(),
  snapshotHash: z.string(),
  eligibleCount: z.number(),
  winners: z.array(giveawayParticipant),
  prizePoints: z.number(),
});
export type GiveawayRoll = z.infer<typeof giveawayRoll>;

export const giveawayState = z.object({
  keys: z.array(giveawayKey),
  settings: giveawaySettings,
  participantCount: z.number(),
  /** SHA-256 of the seed the next roll will use, published before it (docs/features/giveaway.md#entering-and-the-roll). */
  nextSeedHash: z.string(),
  lastRoll: giveawayRoll.nullable(),
  /** The last roll's winners' chat messages since that roll, oldest first. */
  winnerMessages: z.array(winnerMessage),
});
export type GiveawayState = z.infer<typeof giveawayState>;

export const giveawayHub = defineHub({
  namespace: '/KickGiveAway',
  query: z.object({}),
  calls: {
    GetState: call(noPayload, giveawayState, 'moderator'),
    GetParticipants: call(noPayload, z.array(giveawayParticipant), 'moderator'),
    GetLatestWinners: call(noPayload, z.array(giveawayParticipant), 'moderator'),
    Roll: call(noPayload, giveawayRoll, 'moderator'),
    ClearParticipants: call(noPayload, z.null(), 'moderator'),
    ClearRecentWinners: call(noPayload, z.null(), 'moderator'),
    AddKey: call(giveawayKeyText, z.array(giveawayKey), 'moderator'),
    SetKeys: call(z.array(z.string()).max(200, 'At most 200 keys.'), z.array(giveawayKey), 'moderator'),
    UpdateStateSettings: call(giveawaySettingsUpdate, giveawaySettings, 'moderator'),
  },
  events: {
    ReceiveState: giveawayState,
    ReceiveParticipants: z.array(giveawayParticipant),
    ReceiveNewParticipant: giveawayParticipant,
    ReceiveNewWinnerMessage: winnerMessage,
    /** The recent winners line, newest first. */
    ReceiveWinners: z.array(giveawayParticipant),
    /** A roll just happened (every admin page spins to it). */
    ReceiveRoll: giveawayRoll,
  },
});
export type GiveawayHub = typeof giveawayHub;
