/**
 * Stream streaks (docs/features/stream-streaks.md): a linked viewer who chats during consecutive
 * live streams keeps a streak; the admin sets a bonus per streak length.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const streakView = z.object({
  /** Streams in a row, counting the last one attended; 0 once a stream went by without them. */
  current: z.number(),
  best: z.number(),
  /** A streak a missed stream ended, which a "Restore streak" item can bring back (once). */
  lost: z.number(),
  /** The next streak length that pays a bonus, with its points. */
  nextBonus: z.object({ length: z.number(), points: z.number() }).nullable(),
});
export type StreakView = z.infer<typeof streakView>;

export const streakMessages = {
  lengthRange: 'A streak length is between 2 and 1000 streams.',
  pointsPositive: 'A bonus pays more than 0 points.',
  duplicateLength: 'Each streak length may have one bonus.',
  tooMany: 'At most 20 bonuses.',
} as const;

export const streakBonus = z.object({
  length: z
    .number()
    .int(streakMessages.lengthRange)
    .min(2, streakMessages.lengthRange)
    .max(1000, streakMessages.lengthRange),
  points: z.number().gt(0, streakMessages.pointsPositive).max(1_000_000_000, 'At most 1,000,000,000 points.'),
});
export type StreakBonus = z.infer<typeof streakBonus>;

export const streakBonusesBody = z.object({
  bonuses: z
    .array(streakBonus)
    .max(20, streakMessages.tooMany)
    .refine((list) => new Set(list.map((b) => b.length)).size === list.length, streakMessages.duplicateLength),
});

export const streakEndpoints = {
  mine: defineEndpoint({ method: 'GET', path: '/api/me/streak', access: 'user', response: streakView }),
};

export const adminStreakEndpoints = {
  bonuses: defineEndpoint({
    method: 'GET',
    path: '/api/admin/stream-streaks/bonuses',
    access: 'admin',
    response: streakBonusesBody,
  }),
  saveBonuses: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/stream-streaks/bonuses',
    access: 'admin',
    body: streakBonusesBody,
    response: streakBonusesBody,
  }),
};
