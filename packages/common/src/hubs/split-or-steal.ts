/**
 * The Split or Steal hub, `/SplitOrSteal?gameid={id}` (docs/product.md#live-calls): its calls and events and
 * the game state of docs/product.md#live-entities as the server presents it.
 */
import { z } from 'zod';
import { call, defineHub, noPayload } from './hub';
import { gameChatMessage, gameChatText } from './game-chat';
import { SplitOrStealStatus } from '../games/split-or-steal';
import { liveStateFields } from './live-state';

/** The status codes of docs/product.md#live-states-and-transitions, still serialised as their numbers. */
export const splitOrStealStatus = z.enum(SplitOrStealStatus);
/** Which of a player's two balls (1 or 2). */
export const ballNumber = z.literal([1, 2]);
/** A ball as a viewer sees it: 1 Split, 2 Steal, 0 not revealed. */
export const ballContent = z.literal([0, 1, 2]);

export const slotNumber = z.union([z.literal(1), z.literal(2)]);

export const splitOrStealPlayer = z.object({
  userId: z.string(),
  username: z.string(),
  avatarUrl: z.string().nullable(),
  /** The ball the player picked (1 or 2), null before they pick. */
  selection: ballNumber.nullable(),
  /** Points won, set when the game has ended. */
  winnings: z.number().nullable(),
  /** The winnings wait for an Admin's approval (staff prize limits): not in the balance yet. */
  prizeHeld: z.boolean(),
  isWinner: z.boolean(),
});
export type SplitOrStealPlayer = z.infer<typeof splitOrStealPlayer>;

/** A slot an admin reserved for one user, shown before that user joins. */
export const reservedPlayer = z.object({
  userId: z.string(),
  username: z.string(),
  avatarUrl: z.string().nullable(),
});
export type ReservedPlayer = z.infer<typeof reservedPlayer>;

export const answerContext = z.object({
  player1_Answer1: ballContent,
  player1_Answer2: ballContent,
  player2_Answer1: ballContent,
  player2_Answer2: ballContent,
});

export const splitOrStealState = z.object({
  ...liveStateFields,
  status: splitOrStealStatus,
  counterInSeconds: z.number(),
  reward: z.number(),
  isPrivate: z.boolean(),
  player1: splitOrStealPlayer.nullable(),
  player2: splitOrStealPlayer.nullable(),
  reservedPlayer1: reservedPlayer.nullable(),
  reservedPlayer2: reservedPlayer.nullable(),
  /**
   * Balls as this viewer may see them: all 0 until status 4, except that while choosing (status 3) a
   * player's own state carries their own two. `GetAnswerContext` answers the same.
   */
  answerContext,
});
export type SplitOrStealState = z.infer<typeof splitOrStealState>;

export const splitOrStealHub = defineHub({
  namespace: '/SplitOrSteal',
  query: z.object({ gameid: z.uuid() }),
  calls: {
    /** The state, or null when the game is private and the caller may not see it. */
    GetGameState: call(noPayload, splitOrStealState.nullable(), 'visitor'),
    /** The caller's own balls (and everyone's once the game ended). */
    GetAnswerContext: call(noPayload, answerContext, 'visitor'),
    GetChatMessages: call(noPayload, z.array(gameChatMessage), 'visitor'),
    JoinGame: call(slotNumber, splitOrStealState, 'user'),
    UpdateSelection: call(ballNumber, splitOrStealState, 'user'),
    SendChatMessage: call(gameChatText, gameChatMessage, 'user'),
  },
  events: {
    ReceiveGameState: splitOrStealState,
    ReceiveChatMessage: gameChatMessage,
  },
});
export type SplitOrStealHub = typeof splitOrStealHub;
