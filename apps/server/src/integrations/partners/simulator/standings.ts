/**
 * The simulators' figures in the normalised shape, exactly as the adapters read them from the
 * simulators' answers (same ids, units, avatars, who is listed). The demo seeder uses it to give
 * every board a finished previous week without replaying a week of polls.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import type { PartnerStanding } from '../types';
import { avatarPath } from './common';
import { simFigures } from './model';

export function simulatedStandings(site: SiteId, start: Date, end: Date, now: Date, origin: string): PartnerStanding[] {
  return simFigures(site, start, end, now)
    .filter((f) => f.onCode) // RustMagic lists leavers under another board, which the adapter leaves out
    .map((f) => {
      const avatar = site === 6 ? null : avatarPath(f.player);
      return {
        site,
        username: f.player.name,
        externalId: site === 6 ? `rb-${f.player.id}` : f.player.id,
        avatarUrl: avatar ? origin + avatar : null,
        wagered: BigInt(f.wagered),
        weightedWagered: site === 6 ? BigInt(f.weighted) : null,
        unit: site === 1 || site === 2 ? 'gems' : 'USD',
        onCode: f.onCode,
        periodStart: start,
        periodEnd: end,
      };
    });
}
