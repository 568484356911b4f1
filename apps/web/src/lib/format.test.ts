import { describe, expect, it } from 'vitest';
import { formatAmount, formatPoints, formatPrize, formatWhole } from './format';

describe('number formats', () => {
  it('shows points with up to 2 decimals', () => {
    expect(formatPoints(1500)).toBe('1,500');
    expect(formatPoints(12.5)).toBe('12.5');
    expect(formatPoints(0.125)).toBe('0.13');
  });
  it('shows amounts with exactly 2 decimals and wagers with none', () => {
    expect(formatAmount(3)).toBe('3.00');
    expect(formatWhole(1234.56)).toBe('1,235');
  });
  it('shows prizes with their unit: dollars with 2 decimals, others as points', () => {
    expect(formatPrize(14.27, 'USD')).toBe('$14.27');
    expect(formatPrize(1500, 'points')).toBe('1,500 points');
    expect(formatPrize(300, null)).toBe('300');
    expect(formatPrize(null, 'USD')).toBe('—');
  });
});
