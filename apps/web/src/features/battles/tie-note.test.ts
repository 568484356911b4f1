import { describe, expect, it } from 'vitest';
import type { BattleMatch } from '@kickback/common/hubs/battle';
import { tieNote } from './bracket';

const match = (decidedBy: 'multiplier' | 'win' | 'entry', a: [number, number, string], b: [number, number, string]) =>
  ({
    no: 0,
    round: 0,
    index: 0,
    a: { kind: 'entrant', userId: 'ua', username: 'Ada', slot: null },
    b: { kind: 'entrant', userId: 'ub', username: 'Bo', slot: null },
    state: 'played',
    winnerId: 'ub',
    result: {
      a: { cost: a[0], win: a[1], multiplier: a[2] },
      b: { cost: b[0], win: b[1], multiplier: b[2] },
      slotA: null,
      slotB: null,
      decidedBy,
    },
    voidReason: null,
  }) satisfies BattleMatch;

describe('how a tie was broken', () => {
  it('names the rule that decided it', () => {
    expect(tieNote(match('win', [50, 2000, '40.00'], [100, 4000, '40.00']))).toBe(
      'Tie at 40.00× each: Bo goes on with the higher win (4,000.00 against 2,000.00).',
    );
    expect(tieNote(match('entry', [100, 4000, '40.00'], [100, 4000, '40.00']))).toBe(
      'Tie at 40.00× each and equal wins: Bo goes on, having entered first.',
    );
    expect(tieNote(match('multiplier', [1000, 40001, '40.00'], [1000, 40004, '40.00']))).toBe(
      "40.00× each when rounded: Bo's exact multiplier (win ÷ cost) is higher.",
    );
  });

  it('says nothing when the multipliers shown differ', () => {
    expect(tieNote(match('multiplier', [10, 300, '30.00'], [10, 400, '40.00']))).toBeNull();
  });
});
