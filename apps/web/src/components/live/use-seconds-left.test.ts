import { describe, expect, it } from 'vitest';
import { secondsLeft } from './use-seconds-left';

describe('secondsLeft', () => {
  const end = '2026-01-05T12:00:10.000Z';
  const at = (iso: string) => Date.parse(iso);

  it('counts whole seconds up to the server deadline, never below 0', () => {
    expect(secondsLeft(end, 0, at('2026-01-05T12:00:00.000Z'))).toBe(10);
    expect(secondsLeft(end, 0, at('2026-01-05T12:00:09.001Z'))).toBe(1);
    expect(secondsLeft(end, 0, at('2026-01-05T12:00:10.000Z'))).toBe(0);
    expect(secondsLeft(end, 0, at('2026-01-05T12:00:30.000Z'))).toBe(0);
    expect(secondsLeft(null, 0)).toBeNull();
  });

  it('corrects a browser clock that runs behind or ahead of the server', () => {
    // The browser is 4 s behind: its 12:00:00 is the server's 12:00:04.
    expect(secondsLeft(end, 4000, at('2026-01-05T12:00:00.000Z'))).toBe(6);
    expect(secondsLeft(end, -2000, at('2026-01-05T12:00:00.000Z'))).toBe(10 + 2);
  });
});
