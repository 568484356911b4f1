/**
 * The draw procedure of docs/features/giveaway.md#how-a-draw-is-verified, written again from its
 * text, with nothing shared with the server's code (packages/common/giveaway/draw.ts): tests check
 * that the two agree on every roll.
 */
import { createHash, createHmac } from 'node:crypto';

export interface Entry {
  kickUserId: string;
  username: string;
  weight: number;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
}

/** Code-unit order of the ids, as docs/features/giveaway.md says. */
const byKickUserId = (a: Entry, b: Entry) => (a.kickUserId < b.kickUserId ? -1 : a.kickUserId > b.kickUserId ? 1 : 0);

export function independentSnapshotHash(entries: readonly Entry[]): string {
  const sorted = [...entries]
    .sort(byKickUserId)
    .map((e) => ({ kickUserId: e.kickUserId, username: e.username, weight: e.weight }));
  return sha256Hex(JSON.stringify(sorted));
}

export function independentDraw(seed: string, entries: readonly Entry[], count: number): string[] {
  const hash = independentSnapshotHash(entries);
  const left = [...entries].sort(byKickUserId);
  const out: string[] = [];
  for (let i = 0; i < count && left.length; i++) {
    const total = BigInt(left.reduce((s, e) => s + e.weight, 0));
    const range = 1n << 48n;
    const limit = (range / total) * total;
    let ticket: bigint | null = null;
    for (let a = 0; ticket === null; a++) {
      const mac = createHmac('sha256', Buffer.from(seed, 'utf8')).update(`${hash}:${i}:${a}`, 'utf8').digest();
      const r = mac.readUIntBE(0, 6);
      if (BigInt(r) < limit) ticket = BigInt(r) % total;
    }
    let sum = 0n;
    let k = 0;
    for (; k < left.length; k++) {
      sum += BigInt(left[k]!.weight);
      if (sum > ticket) break;
    }
    out.push(left.splice(k, 1)[0]!.kickUserId);
  }
  return out;
}
