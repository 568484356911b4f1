/**
 * The daily caps under real concurrency (test/race-database: PostgreSQL, or skipped loudly): two
 * processes' chat-points buffers flushing the same users at once, and concurrent channel-point
 * redemptions of one user, never credit past the day's cap
 * (docs/features/fair-earning.md#daily-caps).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { fairEarningSettings } from '../../db/schema/fair-earning';
import type { TestApp } from '../../../test/app';
import { ledgerMismatches } from '../../../test/economy';
import { buildRaceApp, describeRace } from '../../../test/race-database';
import { ChatPoints } from '../chat-points/service';
import { grantWithinDailyCap } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await buildRaceApp();
});
afterAll(async () => {
  await t?.close();
});

describeRace('fair earning: daily caps under concurrent credits', () => {
  it('two processes flushing chat minutes of the same users credit each at most the cap', async () => {
    await t.database.db
      .update(fairEarningSettings)
      .set({ chatPointsDailyCap: '10' })
      .where(eq(fairEarningSettings.id, 1));
    const fans = [];
    for (let i = 0; i < 12; i++) fans.push(await t.signIn({ name: `racer${i}` }));
    const start = Date.parse('2026-04-01T10:00:00Z');
    for (let round = 0; round < 4; round++) {
      // Each "process" buffers different minutes (3 each, 15 points), so only the cap limits them.
      const a = new ChatPoints(t.app.db, { pointsPerMinute: 5 });
      const b = new ChatPoints(t.app.db, { pointsPerMinute: 5 });
      const base = start + round * 24 * 60 * 60 * 1000;
      for (const fan of fans) {
        for (let m = 0; m < 3; m++) {
          a.note(fan.user.id, new Date(base + m * 60_000));
          b.note(fan.user.id, new Date(base + (m + 10) * 60_000));
        }
      }
      await Promise.all([a.flush(), b.flush()]);
    }
    for (const fan of fans) expect((await t.reload(fan.user.id)).points).toBe('40.00'); // 10 a day, 4 days
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('concurrent grants of one user and day never exceed the cap, whole grants included', async () => {
    const u = await t.signIn({ name: 'whole' });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.database.db.transaction((tx) =>
          grantWithinDailyCap(
            tx,
            'channel_points',
            100_000n,
            [{ userId: u.user.id, day: '2026-04-10', cents: 25_000n }],
            'whole',
          ),
        ),
      ),
    );
    const granted = results.map((r) => r.get(`${u.user.id}|2026-04-10`) ?? 0n);
    expect(granted.filter((g) => g > 0n)).toHaveLength(4);
    expect(granted.reduce((s, g) => s + g, 0n)).toBe(100_000n);
  });
});
