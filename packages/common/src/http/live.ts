/**
 * `GET /api/live/now` (public): what is running right now, for the home page's "Live now" and the
 * /live page — the public Split or Steal and Deal or No Deal games that have not ended, the open
 * prediction, whether a giveaway takes entries, the running bonus hunt, the open raffles, whether
 * slot calls are open, and whether the stream is live. Private games are never listed. docs/features/live-now-and-disputes.md has the rules.
 */
import { z } from 'zod';
import { DealOrNoDealStatus, type DealOrNoDealStatusCode } from '../games/deal-or-no-deal';
import { SplitOrStealStatus, type SplitOrStealStatusCode } from '../games/split-or-steal';
import { defineEndpoint } from './endpoint';

/** At most this many games of each kind are listed, newest first. */
export const LIVE_GAMES_PER_KIND = 10;

export const liveGame = z.object({
  id: z.string(),
  kind: z.enum(['split-or-steal', 'deal-or-no-deal']),
  /** The show's name. */
  title: z.string(),
  /** Who plays: the seated (or reserved) players of Split or Steal, the player of Deal or No Deal. */
  players: z.array(z.string()),
  /** What is happening, in words ("Waiting for players", "In play"). */
  status: z.string(),
  /** The game page on this site. */
  link: z.string(),
  createdAt: z.string(),
});
export type LiveGame = z.infer<typeof liveGame>;

export const liveNow = z.object({
  /** Kick's last word on the stream: live, ended, or null when it never said. */
  streamLive: z.boolean().nullable(),
  games: z.array(liveGame),
  /** The prediction taking bets (`open`) or waiting for its result (`locked`); null otherwise. */
  prediction: z.object({ question: z.string(), status: z.enum(['open', 'locked']) }).nullable(),
  /** A giveaway key is active: typing it in Kick chat enters the giveaway. */
  giveawayOpen: z.boolean(),
  /** The running bonus hunt; null when none runs. */
  hunt: z.object({ id: z.string(), name: z.string(), guessingOpen: z.boolean(), link: z.string() }).nullable(),
  /** The raffles taking tickets now, closing soonest first (at most LIVE_GAMES_PER_KIND). */
  raffles: z.array(z.object({ id: z.string(), title: z.string(), closesAt: z.string(), link: z.string() })),
  /** Slot calls while they are open (`!sr` in Kick chat), with how many wait in the queue; null when closed. */
  slotCalls: z.object({ queued: z.number(), link: z.string() }).nullable(),
});
export type LiveNow = z.infer<typeof liveNow>;

/** Split or Steal statuses that are still running, with what a viewer reads. */
export const runningSplitOrSteal: Partial<Record<SplitOrStealStatusCode, string>> = {
  [SplitOrStealStatus.WaitingForPlayers]: 'Waiting for players',
  [SplitOrStealStatus.WaitingForPlayer1]: 'Waiting for a player',
  [SplitOrStealStatus.WaitingForPlayer2]: 'Waiting for a player',
  [SplitOrStealStatus.Starting]: 'Starting',
  [SplitOrStealStatus.Choosing]: 'Choosing',
};

/** Deal or No Deal statuses that are still running, with what a viewer reads. */
export const runningDealOrNoDeal: Partial<Record<DealOrNoDealStatusCode, string>> = {
  [DealOrNoDealStatus.WaitingForOwner]: 'Waiting for the player',
  [DealOrNoDealStatus.PickYourBox]: 'Picking a box',
  [DealOrNoDealStatus.Opening]: 'Opening boxes',
  [DealOrNoDealStatus.BankOffer]: 'Bank offer',
  [DealOrNoDealStatus.SwapOffer]: 'Swap offer',
};

export const liveEndpoints = {
  now: defineEndpoint({ method: 'GET', path: '/api/live/now', access: 'visitor', response: liveNow }),
};
