import { describe, expect, it } from 'vitest';
import { simFigures } from '../simulator/model';
import { roobetWeightPercent } from './weighting';

describe("Roobet's contribution rule (docs/product.md#live-constants-and-limits)", () => {
  it('counts RTP ≤ 97% fully, above 97% half, 98% and above a tenth', () => {
    expect(roobetWeightPercent({ rtp: 96.5, category: 'slots' })).toBe(100);
    expect(roobetWeightPercent({ rtp: 97, category: 'slots' })).toBe(100);
    expect(roobetWeightPercent({ rtp: 97.01, category: 'house' })).toBe(50);
    expect(roobetWeightPercent({ rtp: 97.99, category: 'slots' })).toBe(50);
    // The upper bands overlap as worded; 98 and above is the 10% band.
    expect(roobetWeightPercent({ rtp: 98, category: 'slots' })).toBe(10);
    expect(roobetWeightPercent({ rtp: 99.5, category: 'house' })).toBe(10);
  });

  it('counts only slots and house games: dice and live games count nothing', () => {
    expect(roobetWeightPercent({ rtp: 96, category: 'dice' })).toBe(0);
    expect(roobetWeightPercent({ rtp: 99, category: 'dice' })).toBe(0);
    expect(roobetWeightPercent({ rtp: 95, category: 'live' })).toBe(0);
  });

  it('the simulator weights each bet: weighted never exceeds wagered and is exact in cents', () => {
    const from = new Date('2026-03-02T00:00:00Z');
    const figures = simFigures(6, from, new Date('2026-03-09T00:00:00Z'), new Date('2026-03-05T00:00:00Z'));
    expect(figures.length).toBeGreaterThan(10);
    for (const f of figures) {
      expect(Number.isInteger(f.weighted)).toBe(true);
      expect(f.weighted).toBeLessThanOrEqual(f.wagered);
    }
    expect(figures.some((f) => f.weighted < f.wagered)).toBe(true);
  });
});
