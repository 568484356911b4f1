import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalGuessList, closestGuessIndex, guessListHash } from './guesses';

const list = [
  { kickUsername: 'ann', amount: 1200.5, guessedAt: '2026-11-26T16:00:00.000Z' },
  { kickUsername: 'bob', amount: 800, guessedAt: '2026-11-26T16:00:01.250Z' },
];

describe('guess list', () => {
  it('serialises canonically: names, 2-decimal amounts and times in guessing order', () => {
    expect(canonicalGuessList(list)).toBe(
      '[["ann","1200.50","2026-11-26T16:00:00.000Z"],["bob","800.00","2026-11-26T16:00:01.250Z"]]',
    );
  });

  it('hashes with SHA-256 as node:crypto does', async () => {
    const expected = createHash('sha256').update(canonicalGuessList(list), 'utf8').digest('hex');
    expect(await guessListHash(list)).toBe(expected);
    expect(await guessListHash([])).toBe(createHash('sha256').update('[]').digest('hex'));
  });

  it('the closest wins; on a tie the earliest; none without guesses', () => {
    expect(closestGuessIndex([900n, 1100n, 1000n], 1000n)).toBe(2);
    expect(closestGuessIndex([900n, 1100n], 1000n)).toBe(0);
    expect(closestGuessIndex([1100n, 900n], 1000n)).toBe(0);
    expect(closestGuessIndex([], 1000n)).toBe(-1);
  });
});
