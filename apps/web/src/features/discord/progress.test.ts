import { describe, expect, it } from 'vitest';
import { percentDone, unreachedSummary } from './progress';

describe('percentDone', () => {
  it('counts sent and failed recipients as done, rounding down so 100% means finished', () => {
    expect(percentDone({ total: 8, sentCount: 5, failedCount: 1 })).toBe(75);
    expect(percentDone({ total: 3, sentCount: 2, failedCount: 0 })).toBe(66);
    expect(percentDone({ total: 2000, sentCount: 1999, failedCount: 0 })).toBe(99);
    expect(percentDone({ total: 2, sentCount: 1, failedCount: 1 })).toBe(100);
    expect(percentDone({ total: 0, sentCount: 0, failedCount: 0 })).toBe(100);
  });
});

describe('unreachedSummary', () => {
  it('says how many could not be reached and why, most frequent reason first', () => {
    expect(unreachedSummary([])).toBeNull();
    expect(
      unreachedSummary([
        { reason: 'not_linked' },
        { reason: 'dms_closed' },
        { reason: 'dms_closed' },
        { reason: null },
      ]),
    ).toBe('4 could not be reached: 2 DMs closed or no shared server, 1 No Discord account linked, 1 Discord error');
  });
});
