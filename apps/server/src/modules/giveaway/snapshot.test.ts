/**
 * The roll's snapshot built from stored draw entries (./snapshot) is byte for byte the text, hash
 * and order that the documented procedure (`prepareSnapshot`) makes of the same participants:
 * awkward names, entries another encoder wrote (escapes JSON.stringify would not write), and ids
 * whose database order is not the snapshot's order.
 */
import { describe, expect, it } from 'vitest';
import { prepareSnapshot, type DrawEntry } from '@kickback/common/giveaway/draw';
import { independentSnapshotHash } from '../../../test/independent-draw';
import { nodeDrawCrypto } from '../../lib/draw-crypto';
import { drawEntryOf } from './facts';
import { parseDrawEntry, readStoredEntry, SnapshotBuilder, type StoredDrawEntry } from './snapshot';

interface Stored extends DrawEntry {
  drawEntry: string;
}

/** What the database hands over: `kick_user_id COLLATE "C"` order, i.e. UTF-8 byte order. */
const byteOrder = (a: Stored, b: Stored) => Buffer.compare(Buffer.from(a.kickUserId), Buffer.from(b.kickUserId));

/** The builder fed as ./facts feeds it: the entries' bytes in the database's order, one by one. */
async function built(list: Stored[]) {
  const ordered = [...list].sort(byteOrder);
  const bytes = Buffer.from(ordered.map((s) => s.drawEntry).join('\n'), 'utf8');
  const entry: StoredDrawEntry = { bytes, start: 0, end: 0, idEnd: -1, kickUserId: '' };
  const builder = new SnapshotBuilder();
  let at = 0;
  for (const s of ordered) {
    const end = at + Buffer.byteLength(s.drawEntry);
    readStoredEntry(entry, at, end);
    expect(entry.kickUserId).toBe(s.kickUserId);
    builder.add(entry, s.weight);
    at = end + 1;
  }
  return builder.prepare();
}

async function expectSameAsProcedure(list: Stored[]): Promise<void> {
  const snapshot = await built(list);
  const procedure = await prepareSnapshot(nodeDrawCrypto, list);
  expect(snapshot.bytes.toString('utf8')).toBe(procedure.text);
  expect(snapshot.hash).toBe(procedure.hash);
  expect(snapshot.hash).toBe(independentSnapshotHash(list));
  expect(snapshot.entries).toEqual(procedure.entries.map((e) => ({ kickUserId: e.kickUserId, weight: e.weight })));
}

const stored = (kickUserId: string, username: string, weight = 1, drawEntry = drawEntryOf(kickUserId, username)) => ({
  kickUserId,
  username,
  weight,
  drawEntry,
});

describe('the snapshot built from stored draw entries', () => {
  it('is the procedure’s text for plain and awkward names', async () => {
    const names = [
      'plain',
      'O\'Brien "the" \\ one',
      'tab\there',
      'ctrl\u0001\u001f\u007f',
      'ünïcödé_名前',
      'party 🎉 time',
      '</script>',
      '\u2028\u2029',
      '',
    ];
    await expectSameAsProcedure(names.map((name, i) => stored(String(1000 + i), name, 1 + (i % 5))));
  });

  it('re-encodes entries another encoder wrote with escapes JSON.stringify would not write', async () => {
    await expectSameAsProcedure([
      stored('1', 'A', 1, '"1","\\u0041"'),
      stored('2', 'a/b', 2, '"2","a\\/b"'),
      stored('3', 'é', 1, '"\\u0033","\\u00e9"'),
      stored('4', 'x"y', 1, '"4","x\\"y"'),
    ]);
  });

  it('puts ids in code-unit order where the database’s byte order differs', async () => {
    // U+E000 sorts before U+1F600 in UTF-8 bytes, after it in UTF-16 code units.
    await expectSameAsProcedure([
      stored('\ue000', 'private use'),
      stored('\u{1f600}', 'emoji id'),
      stored('7', 'seven'),
    ]);
  });

  it('refuses an entry that is not two JSON strings, as the JSON parse did', async () => {
    await expect(built([stored('1', 'raw\u0001', 1, '"1","raw\u0001"')])).rejects.toThrow();
    expect(() => parseDrawEntry('"1",2')).toThrow();
    expect(() => parseDrawEntry('"1","a","b"')).toThrow();
  });

  it('holds a round of thousands, growing its buffer past short entries', async () => {
    const list = Array.from({ length: 5000 }, (_, i) => stored(String(i), i % 97 === 0 ? `n"${i}` : 'x', 1 + (i % 5)));
    await expectSameAsProcedure(list);
  });
});
