import { z } from 'zod';
import { LOCALES } from '../i18n/locales';

/** Moderator runs games, giveaways and predictions and sees Fulfilment (docs/security.md#roles; common/access.ts). */
export const roles = ['User', 'Moderator', 'Admin'] as const;
export const role = z.enum(roles);
export type Role = z.infer<typeof role>;

/** A money-like amount as JSON carries it: a number with at most 2 decimals. */
export const amount = z.number();

/**
 * The auth user of docs/product.md#site-entities, as `GET /api/User/ping` answers it. `openId` is the site user's
 * id; game states name players by the same id, so "user id equals the signed-in openId" holds.
 */
export const authUser = z.object({
  isAuthenticated: z.literal(true),
  openId: z.string(),
  steamId: z.string(),
  role: role,
  username: z.string(),
  avatarUrl: z.string().nullable(),
  points: amount,
  gems: amount,
  clashId: z.string().nullable(),
  rustMagicId: z.string().nullable(),
  roobetName: z.string().nullable(),
  casesId: z.string().nullable(),
  kickId: z.string().nullable(),
  kickUsername: z.string().nullable(),
  discordUser: z.object({ id: z.string(), username: z.string() }).nullable(),
  showNameOnBoards: z.boolean(),
  /** The user confirmed the 18+ gate (on any browser). */
  ageConfirmed: z.boolean(),
  /** The viewer's own language (docs/features/languages.md#settings); null: follow the site. */
  language: z.enum(LOCALES).nullable(),
});
export type AuthUser = z.infer<typeof authUser>;

/** What the sign-in popup posts to its opener (docs/product.md#site-states-and-transitions). */
export const authPopupMessage = z.object({
  type: z.literal('authpopup'),
  success: z.boolean(),
  message: z.string(),
  /** True when the person cancelled at the provider (Steam's openid.mode=cancel). */
  cancelled: z.boolean().optional(),
});
export type AuthPopupMessage = z.infer<typeof authPopupMessage>;
