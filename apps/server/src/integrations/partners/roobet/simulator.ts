/**
 * Roobet simulator: `GET /dev/partners/roobet/affiliate/v2/stats?userId=&startDate=&endDate=` with
 * the Bearer key; USD floats. Every bet is weighted by the contract's RTP rule (weighting.ts), so
 * `weightedWagered` is below `wagered` by however much the player played high-RTP games, dice or
 * live games.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { cents, dateParam, unauthorized, type SimulatorContext } from '../simulator/common';

export function roobetSimulator(ctx: SimulatorContext, site: SiteId, affiliateId: string | null): void {
  ctx.app.get('/dev/partners/roobet/affiliate/v2/stats', async (request, reply) => {
    const key = ctx.keyFor(site);
    if (!key || request.headers.authorization !== `Bearer ${key}`) return unauthorized(reply);
    const q = request.query as Record<string, unknown>;
    if (q.userId !== affiliateId) return reply.status(403).send({ message: 'Forbidden' });
    const from = dateParam(q.startDate);
    const to = dateParam(q.endDate);
    if (!from || !to || to <= from) return reply.status(400).send({ message: 'Invalid date range' });
    return ctx
      .figures(site, from, to, ctx.app.clock.now())
      .filter((f) => f.onCode)
      .map((f) => ({
        uid: `rb-${f.player.id}`,
        username: ctx.nameOf(f.player),
        wagered: cents(f.wagered),
        weightedWagered: cents(f.weighted),
        favoriteGameId: null,
        favoriteGameTitle: f.favoriteGame,
        rankLevel: 1 + (f.player.index % 8),
        rankLevelImage: null,
        highestMultiplier: null,
      }));
  });
}
