/**
 * The OBS giveaway wheel's hub `/KickGiveAwayOverlay`: public and read-only (it has one call, a
 * read). It carries only what a stream shows anyway — the participant count, Kick names and
 * colours, the winner's avatar — never linked ids or admin controls.
 */
import { z } from 'zod';
import { call, defineHub, noPayload } from './hub';

export const overlayName = z.object({
  username: z.string(),
  color: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
export type OverlayName = z.infer<typeof overlayName>;

export const overlayRoll = z.object({
  rollId: z.string(),
  rolledAt: z.string(),
  landsAt: z.string(),
  winners: z.array(overlayName),
  /** Names to fill the wheel with (a sample of the eligible list, at most 100). */
  reel: z.array(overlayName),
});
export type OverlayRoll = z.infer<typeof overlayRoll>;

export const overlayState = z.object({
  participantCount: z.number(),
  lastRoll: overlayRoll.nullable(),
});
export type OverlayState = z.infer<typeof overlayState>;

export const giveawayOverlayHub = defineHub({
  namespace: '/KickGiveAwayOverlay',
  query: z.object({}),
  calls: { GetOverlayState: call(noPayload, overlayState, 'visitor') },
  events: {
    ReceiveParticipantCount: z.number(),
    ReceiveRoll: overlayRoll,
  },
});
export type GiveawayOverlayHub = typeof giveawayOverlayHub;
