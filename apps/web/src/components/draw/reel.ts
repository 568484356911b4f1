/**
 * The spinner's reel (docs/product.md#live-states-and-transitions,
 * docs/product.md#live-constants-and-limits): the names padded with copies to at least 100 entries,
 * 20 extra copies added, shuffled, and the server's winner placed where the animation stops. The
 * reel is cosmetic: the winner is always the one the server drew.
 */
export const REEL_MIN = 100;
export const REEL_EXTRA = 20;
export const SPIN_MS = 3000;
/** How many cards after the landing card the reel keeps, so the strip never ends in view. */
const TAIL = 6;

export interface ReelName {
  username: string;
  color: string | null;
  avatarUrl: string | null;
}

export interface Reel {
  items: ReelName[];
  /** Index of the card the spinner stops on: it holds the winner. */
  landing: number;
}

export function buildReel(names: readonly ReelName[], winner: ReelName, random: () => number = Math.random): Reel {
  const source = names.length > 0 ? names : [winner];
  const items: ReelName[] = [];
  while (items.length < REEL_MIN) items.push(...source);
  for (let i = 0; i < REEL_EXTRA; i++) items.push(source[i % source.length]!);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  const landing = items.length - TAIL;
  items[landing] = winner;
  return { items, landing };
}
