/**
 * CSGOBig simulator: `GET /dev/partners/csgobig/api/partners/getRefDetails/{code}?from=&to=` (epoch
 * ms). An unknown code answers `{success: false}` as the real one does; avatars are relative paths.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { avatarPath, cents, dateParam, type SimulatorContext } from '../simulator/common';
import { simFigures } from '../simulator/model';

export function csgoBigSimulator(ctx: SimulatorContext, site: SiteId): void {
  ctx.app.get('/dev/partners/csgobig/api/partners/getRefDetails/:code', async (request, reply) => {
    const { code } = request.params as { code: string };
    if (code !== ctx.keyFor(site)) return { success: false, error: 'Invalid referral code' };
    const q = request.query as Record<string, unknown>;
    const from = dateParam(q.from);
    const to = dateParam(q.to);
    if (!from || !to || to <= from) return reply.status(400).send({ success: false, error: 'Invalid range' });
    const now = ctx.app.clock.now();
    return {
      success: true,
      results: simFigures(site, from, to, now)
        .filter((f) => f.onCode)
        .map((f) => ({
          id: f.player.id,
          name: f.player.name,
          img: avatarPath(f.player),
          wagerTotal: cents(f.wagered),
          depositTotal: cents(f.wagered * 0.18),
          level: 1 + (f.player.index % 40),
          lastActive: now.getTime(),
        })),
    };
  });
}
