import { describe, expect, it } from 'vitest';
import type { Challenge } from '@kickback/common/http/challenges';
import { highlightParts, sortChallenges, splitChallenges } from './challenge-list';

const base: Challenge = {
  id: 0,
  title: '',
  price: 0,
  description: '',
  category: 'Roobet',
  imageUrl: '',
  status: 0,
  createdAt: '2026-01-01T00:00:00Z',
  endedAt: null,
  winnerUserId: null,
  winnerUserName: null,
};
const c = (id: number, price: number, day: number, extra: Partial<Challenge> = {}): Challenge => ({
  ...base,
  id,
  title: `c${id}`,
  price,
  createdAt: `2026-01-${String(day).padStart(2, '0')}T00:00:00Z`,
  ...extra,
});

describe('challenge list', () => {
  const list = [c(1, 50, 3), c(2, 500, 1), c(3, 5, 9), c(4, 100, 5)];

  it('sorts 1 Newest, 2 Oldest, 3 Prize high to low, 4 Prize low to high', () => {
    expect(sortChallenges(list, 1).map((x) => x.id)).toEqual([3, 4, 1, 2]);
    expect(sortChallenges(list, 2).map((x) => x.id)).toEqual([2, 1, 4, 3]);
    expect(sortChallenges(list, 3).map((x) => x.id)).toEqual([2, 4, 1, 3]);
    expect(sortChallenges(list, 4).map((x) => x.id)).toEqual([3, 1, 4, 2]);
  });

  it('shows only the fixed category; active under ACTIVE, completed under ENDED, cancelled nowhere', () => {
    const mixed = [
      c(1, 1, 1),
      c(2, 1, 2, { status: 1 }),
      c(3, 1, 3, { status: 2 }),
      c(4, 1, 4, { category: 'Clash' }),
      c(5, 1, 5, { status: 7 }),
    ];
    const { active, ended } = splitChallenges(mixed, 'Roobet', 1);
    expect(active.map((x) => x.id)).toEqual([1]);
    expect(ended.map((x) => x.id)).toEqual([2]);
  });

  it('highlights the text inside curly braces', () => {
    expect(highlightParts('Hit {1,000x} on {Gates} now')).toEqual([
      { text: 'Hit ', highlight: false },
      { text: '1,000x', highlight: true },
      { text: ' on ', highlight: false },
      { text: 'Gates', highlight: true },
      { text: ' now', highlight: false },
    ]);
    expect(highlightParts('no braces')).toEqual([{ text: 'no braces', highlight: false }]);
    expect(highlightParts('open { only')).toEqual([{ text: 'open { only', highlight: false }]);
  });
});
