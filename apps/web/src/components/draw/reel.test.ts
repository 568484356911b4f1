/** The spinner's reel (docs/product.md#live-states-and-transitions, docs/product.md#live-constants-and-limits): padded to at least 100, 20 extra copies, the winner at the landing card. */
import { describe, expect, it } from 'vitest';
import { buildReel, REEL_EXTRA, REEL_MIN } from './reel';

const name = (username: string) => ({ username, color: null, avatarUrl: null });

describe('buildReel', () => {
  it('pads a short list with copies to at least 100, adds 20 more, and lands on the winner', () => {
    const names = ['a', 'b', 'c'].map(name);
    const reel = buildReel(names, name('b'));
    expect(reel.items).toHaveLength(102 + REEL_EXTRA); // 34 copies of 3 = 102 ≥ 100
    expect(reel.items[reel.landing]?.username).toBe('b');
    expect(new Set(reel.items.map((n) => n.username))).toEqual(new Set(['a', 'b', 'c']));
  });

  it('keeps a long list whole, plus 20 extra copies', () => {
    const names = Array.from({ length: 150 }, (_, i) => name(`n${i}`));
    const reel = buildReel(names, name('n7'));
    expect(reel.items).toHaveLength(150 + REEL_EXTRA);
    expect(reel.items.length).toBeGreaterThanOrEqual(REEL_MIN);
    expect(reel.items[reel.landing]?.username).toBe('n7');
  });

  it('is shuffled (a fixed random source gives another order than the input)', () => {
    const names = Array.from({ length: 100 }, (_, i) => name(`n${i}`));
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const reel = buildReel(names, name('n0'), random);
    expect(reel.items.slice(0, 100).map((n) => n.username)).not.toEqual(names.map((n) => n.username));
  });
});
