/**
 * High or Low, the engine's tiny test game (not a feature: nothing ships or registers it). It
 * shows what a new live game writes — pure rules, a view per audience, a hub definition — and
 * exercises the engine: hidden information cut per viewer, a deadline, a payout.
 *
 * An admin makes a game for one owner with a secret number 1–10 (drawn by the server). The owner
 * starts it (a guessing phase of `seconds`), picks High (6–10) or Low (1–5), changeable until the
 * deadline; at the deadline the secret is revealed and a right pick wins the prize. Before the
 * reveal the owner sees their pick, an admin sees the secret, a watcher sees neither.
 */
import { z } from 'zod';
import {
  audienceOf,
  changed,
  deadlineCheck,
  refuse,
  timedPhase,
  unchanged,
  type LiveGameState,
  type Outcome,
  type Seat,
  type Viewer,
} from '../games/engine';
import { call, defineHub, noPayload } from '../hubs/hub';
import { liveStateFields } from '../hubs/live-state';
import { centsToText } from '../money';

export const HighLowStatus = { Waiting: 1, Guessing: 2, Revealed: 3 } as const;
export type HighLowStatusCode = (typeof HighLowStatus)[keyof typeof HighLowStatus];
export type Pick = 'high' | 'low';

export interface HighLowGame extends LiveGameState {
  status: HighLowStatusCode;
  ownerId: string;
  secret: number;
  pick: Pick | null;
  seconds: number;
  prizeCents: bigint;
  wonCents: bigint | null;
}

export type HighLowError = 'not_owner' | 'not_waiting' | 'not_guessing' | 'time_up' | 'stale_deadline' | 'not_due';
export interface HighLowSettlement {
  ownerId: string;
  wonCents: bigint;
}
export type HighLowOutcome = Outcome<HighLowGame, HighLowError, HighLowSettlement>;

export function newHighLow(input: {
  ownerId: string;
  secret: number;
  seconds: number;
  prizeCents: bigint;
}): HighLowGame {
  return {
    ...input,
    status: HighLowStatus.Waiting,
    version: 1,
    pick: null,
    wonCents: null,
    phaseEndsAt: null,
    phaseVersion: null,
  };
}

export function start(game: HighLowGame, action: { userId: string; now: number }): HighLowOutcome {
  if (action.userId !== game.ownerId) return refuse('not_owner');
  if (game.status !== HighLowStatus.Waiting) return refuse('not_waiting');
  const phase = timedPhase(game, action.now, game.seconds);
  return changed({ ...game, status: HighLowStatus.Guessing, ...phase }, phase.phaseEndsAt);
}

export function guess(game: HighLowGame, action: { userId: string; pick: Pick; now: number }): HighLowOutcome {
  if (action.userId !== game.ownerId) return refuse('not_owner');
  if (game.status !== HighLowStatus.Guessing) return refuse('not_guessing');
  if (game.phaseEndsAt !== null && action.now >= game.phaseEndsAt) return refuse('time_up');
  if (game.pick === action.pick) return unchanged(game);
  return changed({ ...game, pick: action.pick });
}

export function onDeadline(game: HighLowGame, at: { version: number; now: number }): HighLowOutcome {
  const why = deadlineCheck(game, at);
  if (why) return refuse(why);
  const right = game.pick !== null && game.secret > 5 === (game.pick === 'high');
  const wonCents = right ? game.prizeCents : 0n;
  return changed({ ...game, status: HighLowStatus.Revealed, wonCents, phaseEndsAt: null, phaseVersion: null }, null, {
    ownerId: game.ownerId,
    wonCents,
  });
}

export const seatsOf = (game: HighLowGame): Seat[] => [{ userId: game.ownerId, audience: 'owner' }];

export const highLowState = z.object({
  ...liveStateFields,
  status: z.enum(HighLowStatus),
  ownerId: z.string(),
  /** The owner's pick: shown to the owner, and to everyone once revealed. */
  pick: z.enum(['high', 'low']).nullable(),
  /** The secret: shown to admins, and to everyone once revealed. */
  secret: z.number().nullable(),
  prize: z.string(),
  won: z.string().nullable(),
});
export type HighLowState = z.infer<typeof highLowState>;

/** The state as one viewer may see it. */
export function viewFor(game: HighLowGame, viewer: Viewer | null, id: string): Omit<HighLowState, 'serverTime'> {
  const { audience } = audienceOf(seatsOf(game), viewer);
  const revealed = game.status === HighLowStatus.Revealed;
  return {
    id,
    version: game.version,
    phaseEndsAt: game.phaseEndsAt === null ? null : new Date(game.phaseEndsAt).toISOString(),
    status: game.status,
    ownerId: game.ownerId,
    pick: revealed || audience === 'owner' ? game.pick : null,
    secret: revealed || audience === 'admin' ? game.secret : null,
    prize: centsToText(game.prizeCents),
    won: game.wonCents === null ? null : centsToText(game.wonCents),
  };
}

export const highLowHub = defineHub({
  namespace: '/TestHighLow',
  query: z.object({ gameid: z.uuid() }),
  calls: {
    GetGameState: call(noPayload, highLowState, 'visitor'),
    Start: call(noPayload, highLowState, 'user'),
    Guess: call(z.enum(['high', 'low']), highLowState, 'user'),
  },
  events: {
    ReceiveGameState: highLowState,
    /** To the room when guessing opens (a game's other events, beside its state). */
    PlaySound: z.object({ name: z.literal('start') }),
    /** To the owner alone (all their sockets), after a win was paid. */
    YouWon: z.object({ gameId: z.string(), amount: z.string() }),
    /** To the admins, whenever a game settles. */
    Settled: z.object({ gameId: z.string(), won: z.string() }),
  },
});
