/**
 * `GET /api/earn` (public): every way a viewer earns points, with the amounts the admins set right
 * now — chatting while the stream is live, subs, gifted subs (to the gifter), KICKs, a first follow,
 * the Kick channel-point rewards made on the site and wagering under the code on each shown partner
 * site (docs/features/earning-points.md). The "How to earn points" page (/earn) shows it.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const earnWays = z.object({
  /** Points per minute of chatting in Kick chat while the stream is live; 0 when chat pays nothing. */
  chatPointsPerMinute: z.number(),
  /** Support rewards (docs/features/support-rewards.md): `enabled` false pays none of them. */
  support: z.object({
    enabled: z.boolean(),
    /** Per new or renewed sub, to the subscriber. */
    subPoints: z.number(),
    /** Per gifted sub, to the gifter. */
    giftPoints: z.number(),
    /** Per KICK sent. */
    kickPoints: z.number(),
    /** Once per Kick account, for its first follow. */
    followPoints: z.number(),
    /** The most one person earns per kind per UTC day; 0 = no cap. */
    dailyCap: z.number(),
  }),
  /** The Kick channel-point rewards that pay site points (docs/features/channel-points.md). */
  channelRewards: z.array(z.object({ title: z.string(), cost: z.number(), points: z.number() })),
  /** Each shown partner site whose wagering under the code pays points (a verified link needed). */
  wagering: z.array(
    z.object({
      site: z.number(),
      name: z.string(),
      /** Points per 1 of ranked wager. */
      pointsPerUnit: z.number(),
      codes: z.array(z.string()),
      referralUrl: z.string().nullable(),
    }),
  ),
});
export type EarnWays = z.infer<typeof earnWays>;

export const earnEndpoints = {
  ways: defineEndpoint({ method: 'GET', path: '/api/earn', access: 'visitor', response: earnWays }),
};
