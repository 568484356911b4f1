/**
 * Slot names as chat types them, matched to one catalogue slot
 * (docs/features/slot-calls.md#matching-a-name). Pure: the server matches calls with it and the
 * admin page shows what a name would match.
 *
 * 1. The key of a name: Unicode-normalised (NFKD, accents dropped), lower case, `&` read as "and",
 *    apostrophes dropped, every other run of non-letters/digits a single space, and the filler
 *    words "of", "the", "and", "a" left out. "Gates of Olympus", "gates olympus" and
 *    "gates-of-olympus" all have the key "gates olympus".
 * 2. A name whose key equals a catalogue slot's key is that slot.
 * 3. Otherwise the closest catalogue key by edit distance (insert, delete, substitute, or swap two
 *    neighbours, each 1) matches when the distance is at most 1 for keys of 5–8 characters and at
 *    most 2 for longer ones, and no other slot is as close; nothing shorter is guessed.
 * 4. Anything else is an unknown slot: accepted as typed (flagged) or refused, as the admin chose.
 */
export interface NamedSlot {
  name: string;
  provider: string;
}

const FILLER = new Set(['of', 'the', 'and', 'a']);

export function slotKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '' && !FILLER.has(w))
    .join(' ');
}

/** Optimal string alignment distance, stopping early once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    row[0] = i;
    rows.push(row);
  }
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
  }
  return rows[a.length]![b.length]!;
}

/** How far a typed key may be from a catalogue key to match it. */
export function allowedDistance(key: string): number {
  if (key.length < 5) return 0;
  return key.length <= 8 ? 1 : 2;
}

export type SlotMatch<S extends NamedSlot> =
  { kind: 'exact'; slot: S } | { kind: 'close'; slot: S; distance: number } | { kind: 'unknown'; key: string };

/** A matcher over a catalogue: keys computed once. A later entry with a key already taken is ignored. */
export function slotMatcher<S extends NamedSlot>(catalogue: readonly S[]): (typed: string) => SlotMatch<S> {
  const byKey = new Map<string, S>();
  for (const slot of catalogue) {
    const key = slotKey(slot.name);
    if (key !== '' && !byKey.has(key)) byKey.set(key, slot);
  }
  return (typed) => {
    const key = slotKey(typed);
    const exact = byKey.get(key);
    if (exact) return { kind: 'exact', slot: exact };
    const max = allowedDistance(key);
    if (max === 0) return { kind: 'unknown', key };
    let best: S | null = null;
    let bestDistance = max + 1;
    let tie = false;
    for (const [candidate, slot] of byKey) {
      const d = editDistance(key, candidate, Math.min(max, bestDistance));
      if (d < bestDistance) {
        best = slot;
        bestDistance = d;
        tie = false;
      } else if (d === bestDistance && d <= max && slot !== best) {
        tie = true;
      }
    }
    return best && !tie && bestDistance <= max
      ? { kind: 'close', slot: best, distance: bestDistance }
      : { kind: 'unknown', key };
  };
}
