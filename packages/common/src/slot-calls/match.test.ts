import { describe, expect, it } from 'vitest';
import { slotCatalogue } from './catalogue';
import { editDistance, slotKey, slotMatcher } from './match';

const match = slotMatcher(slotCatalogue);

describe('slot names', () => {
  it('gives one key to the spellings of one slot', () => {
    expect(
      new Set(['gates olympus', 'Gates of Olympus', 'gates-of-olympus', 'GATES  OF   OLYMPUS!'].map(slotKey)),
    ).toEqual(new Set(['gates olympus']));
    expect(slotKey("Jammin' Jars")).toBe(slotKey('jammin jars'));
    expect(slotKey('Blood & Shadow')).toBe(slotKey('blood and shadow'));
    expect(slotKey('Ésqueleto Explosivo')).toBe('esqueleto explosivo');
  });

  it('matches the catalogue exactly, then by a small edit distance', () => {
    for (const typed of ['gates olympus', 'Gates of Olympus', 'gates-of-olympus']) {
      expect(match(typed)).toMatchObject({
        kind: 'exact',
        slot: { name: 'Gates of Olympus', provider: 'Pragmatic Play' },
      });
    }
    expect(match('sweet bonanaz')).toMatchObject({ kind: 'close', slot: { name: 'Sweet Bonanza' }, distance: 1 });
    expect(match('wanted dead or wlid')).toMatchObject({ kind: 'close', slot: { name: 'Wanted Dead or a Wild' } });
    expect(match('gates of olympsu')).toMatchObject({ kind: 'close', slot: { name: 'Gates of Olympus' } });
  });

  it('guesses nothing for short or far names, nor between two equally close slots', () => {
    expect(match('mentl')).toMatchObject({ kind: 'close', slot: { name: 'Mental' } });
    expect(match('itro')).toEqual({ kind: 'unknown', key: 'itro' });
    expect(match('my own homebrew slot')).toMatchObject({ kind: 'unknown' });
    expect(match('money train 5')).toMatchObject({ kind: 'unknown' }); // 1 from Money Train 2, 3 and 4
  });

  it('counts edits, a swap of neighbours as one', () => {
    expect(editDistance('abcd', 'abdc', 3)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});
