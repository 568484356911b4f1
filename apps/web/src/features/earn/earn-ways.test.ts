/** The ways the "How to earn points" page lists, from the server's amounts: off ones are kept and marked off. */
import { describe, expect, it } from 'vitest';
import type { EarnWays } from '@kickback/common/http/earn';
import { earnWaysOf } from './earn-ways';

const data: EarnWays = {
  chatPointsPerMinute: 2,
  support: { enabled: true, subPoints: 750, giftPoints: 500, kickPoints: 0, followPoints: 100, dailyCap: 5000 },
  channelRewards: [{ title: 'Hydrate', cost: 1500, points: 250 }],
  wagering: [{ site: 6, name: 'Roobet', pointsPerUnit: 10, codes: ['VEX'], referralUrl: null }],
};

describe('earnWaysOf', () => {
  it('lists every way with its amount in words, in the page’s order', () => {
    expect(earnWaysOf(data).map((w) => [w.key, w.amount, w.on])).toEqual([
      ['chat', '2.00 points', true],
      ['sub', '750.00 points', true],
      ['gift', '500.00 points', true],
      ['kicks', '0.00 points', false],
      ['follow', '100.00 points', true],
      ['reward:0', '250.00 points', true],
      ['wager:6', '10.00 points', true],
    ]);
    const ways = earnWaysOf(data);
    expect(ways.find((w) => w.key === 'gift')?.per).toMatch(/to you, the gifter/);
    expect(ways.find((w) => w.key === 'reward:0')?.per).toBe('when you redeem it on Kick for 1,500 channel points');
    expect(ways.find((w) => w.key === 'wager:6')?.per).toBe('for each 1.00 wagered under the code VEX');
  });

  it('marks every support way off while support rewards are off, and chat off at 0 a minute', () => {
    const off = earnWaysOf({ ...data, chatPointsPerMinute: 0, support: { ...data.support, enabled: false } });
    expect(off.filter((w) => w.group === 'support' || w.group === 'chat').every((w) => !w.on)).toBe(true);
  });
});
