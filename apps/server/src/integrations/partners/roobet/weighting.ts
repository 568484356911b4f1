/**
 * Roobet's leaderboard contribution rule (docs/product.md#live-constants-and-limits): a bet on a
 * game with an RTP of 97% or less counts 100%, above 97% counts 50%, 98% and above counts 10%; only
 * slots and house games count, dice excluded. The two upper bands overlap as worded, so they apply
 * in this order: ≥ 98 → 10%, else > 97 → 50%, else 100%. Roobet's API already reports
 * `weightedWagered`; this is for the simulator (which weights each bet) and the disclosure.
 */
export type RoobetCategory = 'slots' | 'house' | 'dice' | 'live';

export interface RoobetGame {
  title: string;
  /** Percent, e.g. 96.5. */
  rtp: number;
  category: RoobetCategory;
}

export function roobetWeightPercent(game: Pick<RoobetGame, 'rtp' | 'category'>): 0 | 10 | 50 | 100 {
  if (game.category !== 'slots' && game.category !== 'house') return 0;
  if (game.rtp >= 98) return 10;
  if (game.rtp > 97) return 50;
  return 100;
}

/** The simulator's game catalogue: every band and every category of the rule is represented. */
export const roobetGames: readonly RoobetGame[] = [
  { title: 'Sweet Bonanza', rtp: 96.48, category: 'slots' },
  { title: 'Gates of Olympus', rtp: 96.5, category: 'slots' },
  { title: 'Wanted Dead or a Wild', rtp: 96.38, category: 'slots' },
  { title: 'Sugar Rush 1000', rtp: 97.5, category: 'slots' },
  { title: 'Le Bandit', rtp: 96.34, category: 'slots' },
  { title: 'Book of Time', rtp: 98.2, category: 'slots' },
  { title: 'Crash', rtp: 97, category: 'house' },
  { title: 'Towers', rtp: 97.5, category: 'house' },
  { title: 'Mines', rtp: 99, category: 'house' },
  { title: 'Plinko', rtp: 99, category: 'house' },
  { title: 'Dice', rtp: 99, category: 'dice' },
  { title: 'Blackjack', rtp: 99.5, category: 'live' },
];
