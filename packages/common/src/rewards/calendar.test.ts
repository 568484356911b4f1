import { describe, expect, it } from 'vitest';
import { buildCalendar, cardStateOf, caseColourOf, isClaimable } from './calendar';

describe('daily reward calendar', () => {
  const now = new Date('2026-02-10T15:30:00Z');

  it('has one card per day of the UTC month', () => {
    expect(buildCalendar(now, [])).toHaveLength(28);
    expect(buildCalendar(new Date('2028-02-01T00:00:00Z'), [])).toHaveLength(29);
    expect(buildCalendar(new Date('2026-11-30T23:59:59Z'), [])).toHaveLength(30);
  });

  it('locks future days, times out past days and offers today', () => {
    const days = buildCalendar(now, []);
    expect(cardStateOf(days[8]!)).toBe('timeout'); // day 9
    expect(cardStateOf(days[9]!)).toBe('available'); // day 10, today
    expect(cardStateOf(days[10]!)).toBe('locked'); // day 11
    expect(days.filter(isClaimable).map((d) => d.day)).toEqual([10]);
    expect(days[0]).toMatchObject({ day: 1, isTimeout: true, isLocked: false });
    expect(days[27]).toMatchObject({ day: 28, isLocked: true, isTimeout: false });
  });

  it('shows recorded claims as claimed with their amount, today included', () => {
    const days = buildCalendar(now, [
      { createTime: '2026-02-03T08:00:00Z', gemAmount: 12.5 },
      { createTime: '2026-02-10T00:00:01Z', gemAmount: 3.25 },
      { createTime: '2026-01-31T23:59:59Z', gemAmount: 99 }, // another month: ignored
    ]);
    expect(days[2]).toMatchObject({ day: 3, isClaimedInitial: true, isOpen: true, initialGemAmount: 12.5 });
    expect(cardStateOf(days[2]!)).toBe('claimed');
    expect(days[9]).toMatchObject({ isClaimedInitial: true, initialGemAmount: 3.25 });
    expect(isClaimable(days[9]!)).toBe(false);
    expect(days.filter((d) => d.isClaimedInitial)).toHaveLength(2);
  });

  it('uses UTC days: just before midnight UTC is still the same day', () => {
    const days = buildCalendar(new Date('2026-02-10T23:59:59.999Z'), []);
    expect(days.filter(isClaimable).map((d) => d.day)).toEqual([10]);
  });

  it('cycles eight case colours by day index', () => {
    expect([0, 1, 7, 8, 9, 15, 16, 30].map(caseColourOf)).toEqual([0, 1, 7, 0, 1, 7, 0, 6]);
  });
});
