/**
 * Period arithmetic. A site's schedule is an anchor instant and a length in days: periods start at
 * the anchor and every `days` before and after it. Periods are contiguous: a new one starts where
 * the last one ended (or, after downtime, at the schedule boundary before now) and ends at the
 * next boundary. Pure functions; the clock is passed in.
 */
const DAY_MS = 86_400_000;

export interface Schedule {
  anchor: Date;
  days: number;
}

export interface Window {
  start: Date;
  end: Date;
}

/** The schedule boundary at or before `t`. */
export function boundaryAtOrBefore(schedule: Schedule, t: Date): Date {
  const len = schedule.days * DAY_MS;
  const k = Math.floor((t.getTime() - schedule.anchor.getTime()) / len);
  return new Date(schedule.anchor.getTime() + k * len);
}

/** The first schedule boundary strictly after `t`. */
export function boundaryAfter(schedule: Schedule, t: Date): Date {
  return new Date(boundaryAtOrBefore(schedule, t).getTime() + schedule.days * DAY_MS);
}

/**
 * The window of the period that should be running at `now`: from the later of the schedule
 * boundary and the end of the last period that already ended, to the next boundary.
 */
export function currentWindow(schedule: Schedule, now: Date, lastEnd: Date | null): Window {
  const boundary = boundaryAtOrBefore(schedule, now);
  const start = lastEnd && lastEnd > boundary && lastEnd <= now ? lastEnd : boundary;
  return { start, end: boundaryAfter(schedule, now) };
}
