/** The public record of one giveaway roll (`GET /api/giveaway/rolls/{rollId}`), for the verify page. */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const drawEntry = z.object({ kickUserId: z.string(), username: z.string(), weight: z.number() });

export const rollRecord = z.object({
  rollId: z.string(),
  /** When the seed hash was published (before the roll). */
  committedAt: z.string(),
  rolledAt: z.string(),
  seedHash: z.string(),
  serverSeed: z.string(),
  snapshotHash: z.string(),
  snapshot: z.array(drawEntry),
  winnersWanted: z.number(),
  /** The winners' kick user ids in draw order, as the server drew them. */
  winners: z.array(z.string()),
  winnerNames: z.array(z.string()),
});
export type RollRecord = z.infer<typeof rollRecord>;

export const rollParams = z.object({ rollId: z.uuid() });

export const giveawayEndpoints = {
  roll: defineEndpoint({
    method: 'GET',
    path: '/api/giveaway/rolls/:rollId',
    access: 'visitor',
    params: rollParams,
    response: rollRecord,
  }),
};
