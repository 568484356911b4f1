import { describe, expect, it } from 'vitest';
import { countOf } from './plural';

describe('countOf', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect(countOf(0, 'participant')).toBe('0 participants');
    expect(countOf(1, 'participant')).toBe('1 participant');
    expect(countOf(2, 'participant')).toBe('2 participants');
  });

  it('takes an irregular plural', () => {
    expect(countOf(1, 'entry', 'entries')).toBe('1 entry');
    expect(countOf(3, 'entry', 'entries')).toBe('3 entries');
  });
});
