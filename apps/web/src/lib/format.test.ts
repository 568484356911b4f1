import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatCountdown,
  formatDate,
  formatMoney,
  formatPrize,
  formatRelative,
  formatTime,
  formatWhole,
} from './format';

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
  it('writes amounts as each language does, exactly (no float on the way)', () => {
    expect(formatAmount('1234567.89', 'es')).toBe('1.234.567,89');
    expect(formatAmount('1234567.89', 'pt-BR')).toBe('1.234.567,89');
    expect(formatAmount('250.5', 'es')).toBe('250,50');
    expect(formatAmount('9999999999999999.99', 'en')).toBe('9,999,999,999,999,999.99');
  });
  it('shows wagers whole', () => {
    expect(formatWhole(1234.56)).toBe('1,235');
    expect(formatWhole(1234567.4, 'pt-BR')).toBe('1.234.567');
  });
  it('shows prizes with their unit: dollars as money, others with the unit', () => {
    expect(formatPrize(14.27, 'USD')).toBe('$14.27');
    expect(formatPrize(1500, 'points')).toBe('1,500.00 points');
    expect(formatPrize(300, null)).toBe('300.00');
    expect(formatPrize(null, 'USD')).toBe('—');
    expect(formatPrize(14.27, 'USD', 'pt-BR')).toBe('US$\u00a014,27');
  });
  it("shows money in a partner's currency in the viewer's language", () => {
    expect(formatMoney('1500.5', 'EUR', 'es')).toBe('1500,50\u00a0€');
    expect(formatMoney('1500.5', 'BRL', 'pt-BR')).toBe('R$\u00a01.500,50');
    expect(formatMoney(20, 'USD', 'en')).toBe('$20.00');
  });
});

describe('dates and times', () => {
  const at = new Date(Date.UTC(2026, 11, 8, 21, 30));
  it('writes a day in each language', () => {
    expect(formatDate(at, 'en')).toMatch(/Dec \d+, 2026/);
    expect(formatDate(at, 'es')).toMatch(/\d+ dic 2026/);
    expect(formatDate(at, 'pt-BR')).toMatch(/\d+ de dez\. de 2026/);
  });
  it('writes a time of day with 24 hours in Spanish and Portuguese', () => {
    expect(formatTime(at, 'es')).toMatch(/^\d{2}:30$/);
    expect(formatTime(at, 'en')).toMatch(/^\d{2}:30 (AM|PM)$/);
  });
  it('writes a relative time', () => {
    const now = at.getTime();
    expect(formatRelative(now - 3 * 60_000, now, 'en')).toBe('3 minutes ago');
    expect(formatRelative(now - 3 * 60_000, now, 'es')).toBe('hace 3 minutos');
    expect(formatRelative(now + 2 * 3600_000, now, 'pt-BR')).toBe('em 2 horas');
    expect(formatRelative(now - 86_400_000, now, 'es')).toBe('ayer');
  });
  it("writes a countdown's time left as a duration", () => {
    expect(formatCountdown(2 * 86_400 + 3 * 3600 + 4 * 60, 'en')).toBe('2 days, 3 hours, and 4 minutes');
    expect(formatCountdown(2 * 86_400 + 3 * 3600 + 4 * 60, 'es')).toBe('2 días, 3 horas y 4 minutos');
    expect(formatCountdown(3600, 'pt-BR')).toBe('1 hora');
    expect(formatCountdown(0, 'en')).toBe('0 minutes');
  });
});
