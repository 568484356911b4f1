/**
 * The giveaway draw procedure (docs/features/giveaway.md#entering-and-the-roll,
 * docs/features/giveaway.md#how-a-draw-is-verified). Pure and deterministic: the server runs it to
 * pick the winners and the public verify page runs the very same code in the browser, each side
 * bringing its own SHA-256 / HMAC-SHA256 (node:crypto on the server, Web Crypto in the browser).
 * Randomness comes only from the server seed, drawn from a CSPRNG and committed to (its SHA-256
 * published) before any roll that uses it.
 *
 * 1. The snapshot is the list of eligible entries `{ kickUserId, username, weight }` (weight =
 *    Subs Luck for a subscriber, 1 otherwise), sorted by `kickUserId` (code-unit order), serialised
 *    as `JSON.stringify` of that array with the keys in that order. `snapshotHash` = hex SHA-256 of
 *    the UTF-8 of that text.
 * 2. `seedHash` = hex SHA-256 of the seed's text (64 hex characters).
 * 3. For winner i = 0, 1, … and attempt a = 0, 1, …: `h` = HMAC-SHA256(key = seed text,
 *    message = `${snapshotHash}:${i}:${a}`); `r` = the first 6 bytes of `h` as a big-endian
 *    integer (0 ≤ r < 2^48). With `W` the total weight of the entries not yet drawn, accept `r`
 *    when `r < floor(2^48 / W) · W` (no modulo bias), else try the next attempt. The ticket is
 *    `r mod W`; walking the entries not yet drawn in snapshot order, the winner is the first whose
 *    running weight sum exceeds the ticket. A winner leaves the list before the next is drawn.
 */

export interface DrawEntry {
  kickUserId: string;
  username: string;
  /** Tickets in the draw: Subs Luck for a subscriber, 1 for everyone else. */
  weight: number;
}

export interface DrawCrypto {
  /** Lower-case hex SHA-256 of the UTF-8 of `text`. */
  sha256Hex(text: string): Promise<string>;
  /** HMAC-SHA256 of the UTF-8 of `message` under the UTF-8 of `key`. */
  hmacSha256(key: string, message: string): Promise<Uint8Array>;
}

const RANGE = 2 ** 48;

/** The snapshot in its canonical order and key order: the exact list that is hashed and drawn from. */
export function canonicalSnapshot(entries: readonly DrawEntry[]): DrawEntry[] {
  return entries
    .map((e) => ({ kickUserId: e.kickUserId, username: e.username, weight: e.weight }))
    .sort((a, b) => (a.kickUserId < b.kickUserId ? -1 : a.kickUserId > b.kickUserId ? 1 : 0));
}

export function snapshotText(snapshot: readonly DrawEntry[]): string {
  return JSON.stringify(canonicalSnapshot(snapshot));
}

export function snapshotHashOf(crypto: DrawCrypto, snapshot: readonly DrawEntry[]): Promise<string> {
  return crypto.sha256Hex(snapshotText(snapshot));
}

/** A snapshot put in canonical order once, with its text and hash (step 1), ready to draw from. */
export interface PreparedSnapshot {
  /** The entries in canonical order (their names are in `text`; drawing needs only ids and weights). */
  entries: readonly Pick<DrawEntry, 'kickUserId' | 'weight'>[];
  text: string;
  hash: string;
}

export async function prepareSnapshot(crypto: DrawCrypto, snapshot: readonly DrawEntry[]): Promise<PreparedSnapshot> {
  const entries = canonicalSnapshot(snapshot);
  const text = JSON.stringify(entries);
  return { entries, text, hash: await crypto.sha256Hex(text) };
}

function first48Bits(h: Uint8Array): number {
  let r = 0;
  for (let k = 0; k < 6; k++) r = r * 256 + (h[k] ?? 0);
  return r;
}

/**
 * The winners (kick user ids, in draw order) of a snapshot under a seed: at most `count`, fewer
 * when the snapshot is smaller.
 */
export async function drawWinners(
  crypto: DrawCrypto,
  seed: string,
  snapshot: readonly DrawEntry[],
  count: number,
): Promise<string[]> {
  return drawFromPrepared(crypto, seed, await prepareSnapshot(crypto, snapshot), count);
}

/** Step 3 on a snapshot already prepared (the server hashes its snapshot once per roll). */
export async function drawFromPrepared(
  crypto: DrawCrypto,
  seed: string,
  prepared: Pick<PreparedSnapshot, 'entries' | 'hash'>,
  count: number,
): Promise<string[]> {
  const remaining = prepared.entries.filter((e) => e.weight > 0);
  let total = remaining.reduce((sum, e) => sum + e.weight, 0);
  const winners: string[] = [];
  for (let i = 0; i < count && remaining.length > 0; i++) {
    const limit = Math.floor(RANGE / total) * total;
    let ticket = -1;
    for (let attempt = 0; ticket < 0; attempt++) {
      const r = first48Bits(await crypto.hmacSha256(seed, `${prepared.hash}:${i}:${attempt}`));
      if (r < limit) ticket = r % total;
    }
    let running = 0;
    const index = remaining.findIndex((e) => {
      running += e.weight;
      return running > ticket;
    });
    const [winner] = remaining.splice(index, 1);
    total -= winner!.weight;
    winners.push(winner!.kickUserId);
  }
  return winners;
}
