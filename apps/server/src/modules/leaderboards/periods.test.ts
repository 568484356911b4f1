import { describe, expect, it } from 'vitest';
import { boundaryAfter, boundaryAtOrBefore, currentWindow } from './periods';
import { maskName } from './ranking';

const weekly = { anchor: new Date('2026-01-05T00:00:00Z'), days: 7 };
const d = (iso: string) => new Date(iso);

describe('period arithmetic', () => {
  it('finds the boundaries around an instant, before and after the anchor', () => {
    expect(boundaryAtOrBefore(weekly, d('2026-03-04T12:00:00Z'))).toEqual(d('2026-03-02T00:00:00Z'));
    expect(boundaryAfter(weekly, d('2026-03-04T12:00:00Z'))).toEqual(d('2026-03-09T00:00:00Z'));
    expect(boundaryAtOrBefore(weekly, d('2026-03-02T00:00:00Z'))).toEqual(d('2026-03-02T00:00:00Z'));
    expect(boundaryAfter(weekly, d('2026-03-02T00:00:00Z'))).toEqual(d('2026-03-09T00:00:00Z'));
    expect(boundaryAtOrBefore(weekly, d('2025-12-31T23:00:00Z'))).toEqual(d('2025-12-29T00:00:00Z'));
  });

  it('starts a period where the last one ended when that is after the boundary (a schedule change)', () => {
    const now = d('2026-03-04T12:00:00Z');
    expect(currentWindow(weekly, now, null)).toEqual({
      start: d('2026-03-02T00:00:00Z'),
      end: d('2026-03-09T00:00:00Z'),
    });
    expect(currentWindow(weekly, now, d('2026-03-03T18:00:00Z'))).toEqual({
      start: d('2026-03-03T18:00:00Z'),
      end: d('2026-03-09T00:00:00Z'),
    });
    // After downtime the gap is skipped: the period starts at the boundary.
    expect(currentWindow(weekly, now, d('2026-02-16T00:00:00Z')).start).toEqual(d('2026-03-02T00:00:00Z'));
  });

  it('supports other lengths and anchors at any time of day', () => {
    const daily = { anchor: d('2026-01-01T18:00:00Z'), days: 1 };
    expect(currentWindow(daily, d('2026-03-04T12:00:00Z'), null)).toEqual({
      start: d('2026-03-03T18:00:00Z'),
      end: d('2026-03-04T18:00:00Z'),
    });
  });
});

describe('name masking', () => {
  it('keeps the ends of a name and hides the middle', () => {
    expect(maskName('abcdefyz')).toBe('ab***yz');
    expect(maskName('abcde')).toBe('ab***de');
    expect(maskName('abcd')).toBe('a***d');
    expect(maskName('abc')).toBe('a***c');
    expect(maskName('ab')).toBe('a***');
    expect(maskName('😀bcdef😀')).toBe('😀b***f😀');
  });
});
