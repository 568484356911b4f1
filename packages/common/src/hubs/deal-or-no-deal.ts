/**
 * The Deal or No Deal hub, `/DealOrNoDeal?gameid={id}` (docs/product.md#live-calls): its calls and events and
 * the game state of docs/product.md#live-entities as the server presents it. Amounts are dollars as numbers with
 * at most 2 decimals; a box's `amount` is null until it is opened.
 */
import { z } from 'zod';
import { DealOrNoDealStatus, sounds } from '../games/deal-or-no-deal';
import { call, defineHub, noPayload } from './hub';
import { liveStateFields } from './live-state';

export const dealOrNoDealStatus = z.enum(DealOrNoDealStatus);
export const boxId = z.number().int().min(1).max(24);

export const boxInfo = z.object({ id: z.number(), isOpened: z.boolean(), amount: z.number().nullable() });
export type BoxInfo = z.infer<typeof boxInfo>;

export const dealOrNoDealState = z.object({
  ...liveStateFields,
  status: dealOrNoDealStatus,
  /** The board, smallest first; `isOpened` strikes an amount once a box holding it opened. */
  amounts: z.array(z.object({ value: z.number(), isOpened: z.boolean() })),
  boxesInfo: z.array(boxInfo),
  primaryBoxId: z.number().nullable(),
  primaryBox: boxInfo.nullable(),
  lastOpenedBox: boxInfo.nullable(),
  lastOpenedBoxId: z.number().nullable(),
  /** The bank's standing offer (status 4), and the accepted one after a Deal. */
  currentOffer: z.object({ amount: z.number() }).nullable(),
  winningAmount: z.number().nullable(),
  remainingBoxCountToOffer: z.number(),
  /** 0-based round being played (rounds of 6, 5, 4, 3, 2, 1, 1). */
  round: z.number(),
  /** How the game was won: at the offer, by changing box, or by keeping it. */
  ending: z.enum(['deal', 'swap', 'keep']).nullable(),
  isPrivate: z.boolean(),
  user: z.object({ userId: z.string(), username: z.string(), avatarUrl: z.string().nullable() }),
  /** SHA-256(seed ‖ board) in hex, from the start (docs/features/deal-or-no-deal.md#verifying-a-board). */
  commitment: z.string(),
  /** Revealed once the game ended: the seed (hex) and the amounts in box order. */
  seed: z.string().nullable(),
  board: z.array(z.number()).nullable(),
});
export type DealOrNoDealState = z.infer<typeof dealOrNoDealState>;

export const soundName = z.enum(sounds);
export const caseOpened = z.object({ boxId: z.number(), amount: z.number() });
export type CaseOpened = z.infer<typeof caseOpened>;

export const dealOrNoDealHub = defineHub({
  namespace: '/DealOrNoDeal',
  query: z.object({ gameid: z.uuid() }),
  calls: {
    /** The state, or null when the game is private and the caller may not see it. */
    GetGameState: call(noPayload, dealOrNoDealState.nullable(), 'visitor'),
    /** The owner starts the game from status 1 (our addition: docs/product.md#deal-or-no-deal-status leaves 1 → 2 open). */
    StartGame: call(noPayload, dealOrNoDealState, 'user'),
    SelectBox: call(boxId, dealOrNoDealState, 'user'),
    /** true: Deal, false: No Deal. */
    AnswerOffer: call(z.boolean(), dealOrNoDealState, 'user'),
    /** true: change it, false: keep it. */
    answerSwapOffer: call(z.boolean(), dealOrNoDealState, 'user'),
    Claim: call(noPayload, dealOrNoDealState, 'user'),
  },
  events: {
    GameStateChange: dealOrNoDealState,
    PlaySound: soundName,
    StopSound: z.null(),
    CaseOpened: caseOpened,
  },
});
export type DealOrNoDealHub = typeof dealOrNoDealHub;
