/**
 * The roll's snapshot (common/giveaway/draw step 1) built straight from the participants' stored
 * `draw_entry` texts (the JSON of their Kick id and name, comma-separated), as bytes, without
 * parsing and re-stringifying 50,000 objects. The published text must stay byte for byte what
 * `prepareSnapshot` makes of the same entries, so each shortcut is taken only where it provably
 * gives the same bytes, and the documented procedure itself runs for the rest:
 *
 * - A stored entry with no backslash and no control character is `"id","name"` with no escape in
 *   either string, which is exactly what `JSON.stringify` writes for them: its bytes are copied as
 *   they are. An entry with a backslash (an escape, which another encoder may have written
 *   differently: `\u0041` for `A`) is parsed and stringified again, as `prepareSnapshot` would.
 * - The database hands the round over in `kick_user_id COLLATE "C"` order (UTF-8 byte order),
 *   which is the snapshot's code-unit order for ids without characters beyond U+FFFF. The order is
 *   checked as the entries arrive; when it does not hold, `prepareSnapshot` makes the snapshot.
 */
import { createHash } from 'node:crypto';
import { prepareSnapshot, type DrawEntry, type PreparedSnapshot } from '@kickback/common/giveaway/draw';
import { nodeDrawCrypto } from '../../lib/draw-crypto';

/** The snapshot the draw runs on: its entries in canonical order, its hash, and the hashed text's UTF-8. */
export interface RollSnapshot extends Pick<PreparedSnapshot, 'entries' | 'hash'> {
  bytes: Buffer;
}

/**
 * One stored draw entry at `bytes[start, end)`, and its Kick id. ./facts refills one such object
 * for each participant: read it during the call, never keep it.
 */
export interface StoredDrawEntry {
  bytes: Buffer;
  start: number;
  end: number;
  /** Where the id's JSON string closes in a plain entry (`plainIdEnd`), -1 in any other. */
  idEnd: number;
  kickUserId: string;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const OPEN = Buffer.from('{"kickUserId":');
const USERNAME = Buffer.from(',"username":');
const WEIGHT = Buffer.from(',"weight":');

/**
 * Where the Kick id of the stored entry at `bytes[start, end)` closes, when the entry is plain:
 * two JSON strings without escapes or control characters. -1 for any other entry.
 */
export function plainIdEnd(bytes: Buffer, start: number, end: number): number {
  if (bytes[start] !== QUOTE || bytes[end - 1] !== QUOTE) return -1;
  let close = -1;
  for (let i = start + 1; i < end - 1; i++) {
    const b = bytes[i]!;
    if (b < 0x20 || b === BACKSLASH) return -1;
    if (b === QUOTE) {
      if (close >= 0 || bytes[i + 1] !== COMMA || bytes[i + 2] !== QUOTE) return -1;
      close = i;
      i += 2;
    }
  }
  return close;
}

/** Points `entry` at the stored entry at `entry.bytes[start, end)`: its id's end and its Kick id. */
export function readStoredEntry(entry: StoredDrawEntry, start: number, end: number): void {
  const { bytes } = entry;
  entry.start = start;
  entry.end = end;
  entry.idEnd = plainIdEnd(bytes, start, end);
  entry.kickUserId =
    entry.idEnd >= 0
      ? bytes.toString('utf8', start + 1, entry.idEnd)
      : parseDrawEntry(bytes.toString('utf8', start, end))[0];
}

/** The Kick id and name of a stored entry, parsed (throws on anything but two JSON strings). */
export function parseDrawEntry(text: string): [string, string] {
  const parsed = JSON.parse(`[${text}]`) as unknown[];
  const [kickUserId, username] = parsed;
  if (parsed.length !== 2 || typeof kickUserId !== 'string' || typeof username !== 'string') {
    throw new Error(`not a giveaway draw entry: ${text.slice(0, 80)}`);
  }
  return [kickUserId, username];
}

/** Collects the eligible entries of a roll, then makes the snapshot the draw runs on. */
export class SnapshotBuilder {
  private source: Buffer | null = null;
  private out = Buffer.alloc(0);
  private at = 1;
  private readonly tickets: Array<Pick<DrawEntry, 'kickUserId' | 'weight'>> = [];
  /** Where each eligible entry is stored, for the documented procedure when the order is off. */
  private readonly stored: number[] = [];
  private ordered = true;

  get size(): number {
    return this.tickets.length;
  }

  add(entry: Readonly<StoredDrawEntry>, weight: number): void {
    const { bytes, start, end, kickUserId } = entry;
    if (this.source !== bytes) {
      if (this.source) throw new Error('a snapshot is built from one round');
      this.source = bytes;
      // Three times the round's text holds a typical round (the keys and weight add 39 bytes to an
      // entry); `reserve` grows it for shorter entries.
      this.out = Buffer.allocUnsafe(bytes.length * 3 + 64);
      this.out[0] = 0x5b; // [
    }
    const last = this.tickets[this.tickets.length - 1];
    if (last && !(last.kickUserId < kickUserId)) this.ordered = false;
    this.tickets.push({ kickUserId, weight });
    this.stored.push(start, end);
    this.reserve(end - start + 64);
    if (this.tickets.length > 1) this.out[this.at++] = COMMA;
    this.put(OPEN);
    const close = entry.idEnd;
    if (close >= 0) {
      this.copy(bytes, start, close + 1);
      this.put(USERNAME);
      this.copy(bytes, close + 2, end);
    } else {
      const [id, name] = parseDrawEntry(bytes.toString('utf8', start, end));
      this.at += this.out.write(JSON.stringify(id), this.at, 'utf8');
      this.put(USERNAME);
      this.at += this.out.write(JSON.stringify(name), this.at, 'utf8');
    }
    this.put(WEIGHT);
    // Subs Luck is 1–5: one digit, written as JSON.stringify would.
    if (Number.isInteger(weight) && weight >= 0 && weight < 10) this.out[this.at++] = 0x30 + weight;
    else this.at += this.out.write(JSON.stringify(weight), this.at, 'latin1');
    this.out[this.at++] = 0x7d; // }
  }

  /** The snapshot in canonical order, its text's UTF-8 (what `prepareSnapshot` writes) and SHA-256. */
  async prepare(): Promise<RollSnapshot> {
    if (!this.ordered) {
      const entries = this.tickets.map(({ weight }, i): DrawEntry => {
        const stored = this.source!.toString('utf8', this.stored[2 * i], this.stored[2 * i + 1]);
        const [kickUserId, username] = parseDrawEntry(stored);
        return { kickUserId, username, weight };
      });
      const prepared = await prepareSnapshot(nodeDrawCrypto, entries);
      return {
        entries: prepared.entries.map(({ kickUserId, weight }) => ({ kickUserId, weight })),
        hash: prepared.hash,
        bytes: Buffer.from(prepared.text, 'utf8'),
      };
    }
    if (this.at === 1) this.out = Buffer.from('[');
    this.reserve(1);
    this.out[this.at++] = 0x5d; // ]
    const bytes = this.out.subarray(0, this.at);
    return { entries: this.tickets, hash: createHash('sha256').update(bytes).digest('hex'), bytes };
  }

  private put(constant: Buffer): void {
    this.copy(constant, 0, constant.length);
  }

  /** A byte loop: the entries' pieces are a few bytes each, where Buffer#copy's call costs more. */
  private copy(from: Buffer, start: number, end: number): void {
    const out = this.out;
    let at = this.at;
    for (let i = start; i < end; i++) out[at++] = from[i]!;
    this.at = at;
  }

  private reserve(n: number): void {
    if (this.at + n <= this.out.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.at + n));
    this.out.copy(bigger, 0, 0, this.at);
    this.out = bigger;
  }
}
