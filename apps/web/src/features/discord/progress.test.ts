import { describe, expect, it } from 'vitest';
import { percentDone } from './progress';

describe('percentDone', () => {
  it('counts sent and failed recipients as done, rounding down so 100% means finished', () => {
    expect(percentDone({ total: 8, sentCount: 5, failedCount: 1 })).toBe(75);
    expect(percentDone({ total: 3, sentCount: 2, failedCount: 0 })).toBe(66);
    expect(percentDone({ total: 2000, sentCount: 1999, failedCount: 0 })).toBe(99);
    expect(percentDone({ total: 2, sentCount: 1, failedCount: 1 })).toBe(100);
    expect(percentDone({ total: 0, sentCount: 0, failedCount: 0 })).toBe(100);
  });
});
