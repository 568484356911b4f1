/**
 * The daily-reward calendar (docs/product.md#site-entities,
 * docs/product.md#site-states-and-transitions): one card per day of the current UTC month. Future
 * days are locked, past days timed out, days with a recorded claim claimed with their amount, and
 * today claimable unless already claimed. Pure, so it is tested with a fixed clock.
 */
export interface CalendarDay {
  /** 1-based day of the month ("Day {n}"). */
  day: number;
  /** 0-based index: picks the case colour (index mod 8). */
  index: number;
  isOpen: boolean;
  /** A day after today. */
  isLocked: boolean;
  /** A day before today. */
  isTimeout: boolean;
  isClaimedInitial: boolean;
  initialGemAmount: number;
}

export const CASE_COLOURS = 8;

export function caseColourOf(index: number): number {
  return ((index % CASE_COLOURS) + CASE_COLOURS) % CASE_COLOURS;
}

export function daysInUtcMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

export function buildCalendar(
  now: Date,
  records: ReadonlyArray<{ createTime: string; gemAmount: number }>,
): CalendarDay[] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const today = now.getUTCDate();
  const claimed = new Map<number, number>();
  for (const r of records) {
    const at = new Date(r.createTime);
    if (Number.isNaN(at.getTime()) || at.getUTCFullYear() !== year || at.getUTCMonth() !== month) continue;
    const day = at.getUTCDate();
    claimed.set(day, (claimed.get(day) ?? 0) + r.gemAmount);
  }
  const days: CalendarDay[] = [];
  for (let day = 1; day <= daysInUtcMonth(year, month); day++) {
    const amount = claimed.get(day);
    days.push({
      day,
      index: day - 1,
      isOpen: amount !== undefined,
      isLocked: day > today,
      isTimeout: day < today,
      isClaimedInitial: amount !== undefined,
      initialGemAmount: amount ?? 0,
    });
  }
  return days;
}

export type CardState = 'claimed' | 'locked' | 'timeout' | 'available';

/** What a card shows: claimed wins over timed out (a past claim stays visible). */
export function cardStateOf(day: Pick<CalendarDay, 'isClaimedInitial' | 'isLocked' | 'isTimeout'>): CardState {
  if (day.isClaimedInitial) return 'claimed';
  if (day.isLocked) return 'locked';
  if (day.isTimeout) return 'timeout';
  return 'available';
}

/** Claimable: not locked, not timed out, not already claimed (docs/product.md#site-states-and-transitions). */
export function isClaimable(day: Pick<CalendarDay, 'isClaimedInitial' | 'isLocked' | 'isTimeout'>): boolean {
  return cardStateOf(day) === 'available';
}
