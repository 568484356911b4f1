/**
 * The bonus hunt hub `/BonusHunt` (docs/features/bonus-hunt.md): public and read-only for the state — the overlay and
 * the public page follow `ReceiveState` — plus one call for those who run hunts, `GetGuesses`
 * (the guesses stay private until the hunt ends; only their count and, once closed, their hash are
 * public). Changes are REST calls (http/hunt.ts).
 */
import { z } from 'zod';
import type { AccessLevel } from '../access';
import { call, defineHub, noPayload } from './hub';
import { liveStateFields } from './live-state';

/**
 * Who may run a hunt (start, add, open, close guessing, finish; the REST calls in http/hunt.ts) and
 * read the guesses (GetGuesses): the one place that says so.
 */
export const HUNT_RUNNER_ACCESS = 'moderator' satisfies AccessLevel;

export const huntBonusView = z.object({
  id: z.string(),
  /** 1-based, in the order bought. */
  position: z.number(),
  slot: z.string(),
  provider: z.string(),
  bet: z.number(),
  cost: z.number(),
  payout: z.number().nullable(),
  /** payout ÷ bet, 2 decimals (half up); null while unopened. */
  multiplier: z.number().nullable(),
  openedAt: z.string().nullable(),
  /** The viewer whose slot call put this bonus in the hunt (docs/features/slot-calls.md). */
  calledBy: z.string().nullable(),
});
export type HuntBonusView = z.infer<typeof huntBonusView>;

export const huntGuessView = z.object({
  kickUsername: z.string(),
  amount: z.number(),
  guessedAt: z.string(),
});
export type HuntGuessView = z.infer<typeof huntGuessView>;

export const huntWinnerView = z.object({
  kickUsername: z.string(),
  amount: z.number(),
  /** |guess − final total|. */
  distance: z.number(),
  prize: z.number(),
  /** False when the prize could not be paid (an excluded account) or there was none. */
  paid: z.boolean(),
  /** The prize waits for an Admin's approval (staff prize limits): not paid yet. */
  held: z.boolean(),
});

export const huntGuessing = z.object({
  /** open: `!guess` is taken; closed: the list is final (and hashed). */
  state: z.enum(['open', 'closed']),
  count: z.number(),
  /** Points for the closest guess (0: none). */
  prize: z.number(),
  closedAt: z.string().nullable(),
  /** SHA-256 (hex) of the canonical closed list (common/hunt/guesses.ts), from the close on. */
  hash: z.string().nullable(),
  /** The full list in guessing order, published when the hunt ends. */
  revealed: z.array(huntGuessView).nullable(),
  winner: huntWinnerView.nullable(),
});

export const huntView = z.object({
  ...liveStateFields,
  name: z.string(),
  status: z.enum(['running', 'finished']),
  startCost: z.number(),
  totalCost: z.number(),
  won: z.number(),
  /** won − total cost: negative is a loss. */
  profit: z.number(),
  openedCount: z.number(),
  /** Average multiplier the unopened bonuses still need to break even (rounded up); null if none left. */
  breakEven: z.number().nullable(),
  best: z.number().nullable(),
  worst: z.number().nullable(),
  /** won ÷ bets of the opened bonuses. */
  average: z.number().nullable(),
  bonuses: z.array(huntBonusView),
  /** The next bonus to open (the first unopened), null when all are opened. */
  currentBonusId: z.string().nullable(),
  guessing: huntGuessing,
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type HuntView = z.infer<typeof huntView>;

export const bonusHuntHub = defineHub({
  namespace: '/BonusHunt',
  query: z.object({}),
  calls: {
    /** The running hunt, or the last finished one (null before the first). Public. */
    GetState: call(noPayload, huntView.nullable(), 'visitor'),
    /** The current hunt's guesses in guessing order. Hunt runners only. */
    GetGuesses: call(noPayload, z.array(huntGuessView), HUNT_RUNNER_ACCESS),
  },
  events: {
    ReceiveState: huntView,
  },
});
export type BonusHuntHub = typeof bonusHuntHub;
