/**
 * The bonus-buy battle hub, `/Battle?gameid={id}` (docs/features/bonus-buy-battles.md): every
 * viewer joins the battle's room and gets the same state — the bracket, the match in play and the
 * results as recorded. Nothing is hidden but the draw's seed, shown once the bracket is drawn.
 */
import { z } from 'zod';
import { battleStatuses, bracketSizes } from '../games/battle';
import { call, defineHub, noPayload } from './hub';
import { liveStateFields } from './live-state';

export const battleSide = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('entrant'), userId: z.string(), username: z.string(), slot: z.string().nullable() }),
  z.object({ kind: z.literal('bye') }),
  z.object({ kind: z.literal('tbd') }),
]);
export type BattleSide = z.infer<typeof battleSide>;

export const buyResultView = z.object({ cost: z.number(), win: z.number(), multiplier: z.string() });

export const battleMatch = z.object({
  no: z.number(),
  round: z.number(),
  index: z.number(),
  a: battleSide,
  b: battleSide,
  state: z.enum(['waiting', 'ready', 'played', 'bye', 'void']),
  winnerId: z.string().nullable(),
  /** The two bonus buys as recorded, with the slots they were played on. */
  result: z
    .object({
      a: buyResultView,
      b: buyResultView,
      slotA: z.string().nullable(),
      slotB: z.string().nullable(),
      /** What decided it under the tie rule (games/battle.ts `decidedBy`). */
      decidedBy: z.enum(['multiplier', 'win', 'entry']),
    })
    .nullable(),
  voidReason: z.string().nullable(),
});
export type BattleMatch = z.infer<typeof battleMatch>;

export const battlePrizeView = z.object({
  kind: z.enum(['points', 'item']),
  points: z.number().nullable(),
  item: z.string().nullable(),
});

export const battleState = z.object({
  ...liveStateFields,
  title: z.string(),
  size: z.union(bracketSizes.map((s) => z.literal(s))),
  status: z.enum(battleStatuses),
  rules: z.object({
    site: z.object({ id: z.number(), name: z.string() }).nullable(),
    minWager: z.number().nullable(),
    subsOnly: z.boolean(),
  }),
  prize: battlePrizeView,
  tieRule: z.string(),
  entrants: z.array(
    z.object({ userId: z.string(), username: z.string(), slot: z.string().nullable(), seq: z.number() }),
  ),
  seedHash: z.string(),
  /** Revealed once the bracket is drawn. */
  seed: z.string().nullable(),
  snapshotHash: z.string().nullable(),
  matches: z.array(battleMatch),
  currentMatchNo: z.number().nullable(),
  winner: z.object({ userId: z.string(), username: z.string() }).nullable(),
  cancelReason: z.string().nullable(),
});
export type BattleState = z.infer<typeof battleState>;

export const battleHub = defineHub({
  namespace: '/Battle',
  query: z.object({ gameid: z.uuid() }),
  calls: {
    /** The state; battles are public, so never null (the live-game contract allows it). */
    GetGameState: call(noPayload, battleState.nullable(), 'visitor'),
  },
  events: {
    BattleState: battleState,
  },
});
export type BattleHub = typeof battleHub;
