import { describe, expect, it } from 'vitest';
import { overlayUrl, readOverlayOptions } from './overlay-options';
import { elapsed, percentOf, statusLabel } from './status-label';

describe('overlay status label (docs/product.md#live-states-and-transitions)', () => {
  it('names each state exactly', () => {
    expect(statusLabel({ state: 1, resultAnswerId: null })).toBe('ACTIVE');
    expect(statusLabel({ state: 2, resultAnswerId: 3 })).toBe('Answer is 3');
    expect(statusLabel({ state: 3, resultAnswerId: null })).toBe('BETS ARE CLOSED');
    expect(statusLabel({ state: 4, resultAnswerId: null })).toBe('CANCELLED');
    expect(statusLabel({ state: 0, resultAnswerId: null })).toBe('');
  });
  it('percent of bettors, and the time since start', () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(0, 0)).toBe(0);
    const start = '2026-01-01T00:00:00.000Z';
    expect(elapsed(start, Date.parse(start) + 65_000)).toBe('1:05');
    expect(elapsed(start, Date.parse(start) + 3_725_000)).toBe('1:02:05');
    expect(elapsed(start, Date.parse(start) - 5_000)).toBe('0:00');
  });
});

describe('overlay URL options', () => {
  it('reads scale, position and theme, falling back on anything unknown', () => {
    expect(readOverlayOptions('?scale=1.5&position=bottom-right&theme=light')).toEqual({
      scale: 1.5,
      position: 'bottom-right',
      theme: 'light',
    });
    expect(readOverlayOptions('?scale=9&position=nowhere&theme=neon')).toEqual({
      scale: 1,
      position: 'top-left',
      theme: 'dark',
    });
  });
  it('builds the URL the admin copies, round-tripping the options', () => {
    const url = overlayUrl('https://x.test', { scale: 0.8, position: 'center', theme: 'light' });
    expect(url).toBe('https://x.test/kick/prediction/overlay?scale=0.8&position=center&theme=light');
    expect(readOverlayOptions(new URL(url).search)).toEqual({ scale: 0.8, position: 'center', theme: 'light' });
    expect(overlayUrl('https://x.test', { scale: 1, position: 'top-left', theme: 'dark' })).toBe(
      'https://x.test/kick/prediction/overlay',
    );
  });
});
