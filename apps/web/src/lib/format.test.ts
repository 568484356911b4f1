import { describe, expect, it } from 'vitest';
import { formatAmount, formatPrize, formatWhole } from './format';

describe('number formats', () => {
  it('shows every points, gems and prize amount with exactly 2 decimals and separators', () => {
    expect(formatAmount(250.5)).toBe('250.50');
    expect(formatAmount('250.5')).toBe('250.50');
    expect(formatAmount(1500)).toBe('1,500.00');
    expect(formatAmount('1234567.89')).toBe('1,234,567.89');
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(-1500.05)).toBe('-1,500.05');
    expect(formatAmount(0.125)).toBe('0.13');
    expect(formatAmount(-0.125)).toBe('-0.13');
    expect(formatAmount(Number.NaN)).toBe('—');
  });
  it('shows wagers whole', () => {
    expect(formatWhole(1234.56)).toBe('1,235');
  });
  it('shows prizes with their unit: dollars with a $, others with the unit', () => {
    expect(formatPrize(14.27, 'USD')).toBe('$14.27');
    expect(formatPrize(1500, 'points')).toBe('1,500.00 points');
    expect(formatPrize(300, null)).toBe('300.00');
    expect(formatPrize(null, 'USD')).toBe('—');
  });
});
