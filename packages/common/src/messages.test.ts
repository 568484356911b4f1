import { describe, expect, it } from 'vitest';
import { earnedMessage } from './messages';

describe('earnedMessage', () => {
  it('writes the amount the way the site writes amounts: 2 decimals, thousands separated', () => {
    expect(earnedMessage(2500, 1)).toBe('Earned 2,500.00 gems.');
    expect(earnedMessage(12.5, 0)).toBe('Earned 12.50 coins.');
  });
});
